"""The HTTP reference, written from the service's OpenAPI schema at build time:
every endpoint with its token, parameters, body and answers (each status with
what it means), and every body's fields; and from the service's list of error
codes (:mod:`remis.service.codes`), every code with its status and params.  A
new endpoint, field, status or code appears on the page with the code, and the
page cannot say what the code does not."""

from __future__ import annotations

from typing import Any

from rest_docstrings import to_markdown

Schema = dict[str, Any]

_REF = "#/components/schemas/"


def _anchor(name: str) -> str:
    return f"body-{name.lower()}"


def _cell(text: str) -> str:
    """Text fit for one cell of a Markdown table."""
    return " ".join(to_markdown(text).split()).replace("|", "\\|")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def type_of(node: Schema) -> str:
    """A JSON Schema node in words, a referenced body linked to its table.

    >>> type_of({"anyOf": [{"type": "integer", "minimum": 0.0}, {"type": "null"}]})
    'integer ≥ 0'
    >>> type_of({"type": "string", "enum": ["white", "black"]})
    '`"white"` or `"black"`'
    >>> type_of({"type": "array", "items": {"$ref": "#/components/schemas/PlayedMove"}})
    'list of [PlayedMove](#body-playedmove)'
    """
    if "$ref" in node:
        name = node["$ref"].removeprefix(_REF)
        return f"[{name}](#{_anchor(name)})"
    if "anyOf" in node:
        kinds = [type_of(n) for n in node["anyOf"] if n.get("type") != "null"]
        return " or ".join(kinds)
    if "enum" in node:
        values = [f"`{_json(v)}`" for v in node["enum"]]
        return " or ".join(values) if len(values) <= 2 else ", ".join(values[:-1]) + \
            f" or {values[-1]}"
    kind = node.get("type")
    if kind == "array":
        return f"list of {type_of(node.get('items', {}))}"
    if kind == "object":
        keys = node.get("propertyNames", {}).get("enum")
        values = node.get("additionalProperties")
        if keys and isinstance(values, dict):
            return f"object: {', '.join(f'`{k}`' for k in keys)} → {type_of(values)}"
        if isinstance(values, dict) and values:
            return f"object of {type_of(values)}"
        return "object"
    words = {"string": "string", "integer": "integer", "number": "number",
             "boolean": "boolean"}.get(str(kind), str(kind or "any JSON"))
    limits = []
    if "minimum" in node:
        limits.append(f"≥ {_number(node['minimum'])}")
    if "exclusiveMinimum" in node:
        limits.append(f"> {_number(node['exclusiveMinimum'])}")
    if "maximum" in node:
        limits.append(f"≤ {_number(node['maximum'])}")
    shortest, longest = node.get("minLength", 0), node.get("maxLength")
    if shortest and longest is not None:
        limits.append(f"of {shortest} to {longest} characters")
    elif longest is not None:
        limits.append(f"of at most {longest} characters")
    elif shortest:
        limits.append(f"of at least {shortest} characters")
    return words + (" " + ", ".join(limits) if limits else "")


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def fields(model: Schema) -> list[str]:
    """A body's fields as a Markdown table: field, type, default, meaning."""
    props: dict[str, Schema] = model.get("properties", {})
    required = set(model.get("required", []))
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for name, node in props.items():
        default = "required" if name in required else (
            f"`{_json(node['default'])}`" if "default" in node else "")
        rows.append(f"| `{name}` | {type_of(node)} | {default} | "
                    f"{_cell(node.get('description', ''))} |")
    return rows


def _answer(status: str, answer: Schema) -> str:
    content: dict[str, Schema] = answer.get("content", {})
    bodies = []
    for media, spec in content.items():
        node = spec.get("schema", {})
        if not node and len(content) > 1:
            continue  # FastAPI's JSON entry beside a declared other type
        shown = type_of(node) if node else "JSON"
        bodies.append(shown if media == "application/json" else f"`{media}`")
    when = answer.get("description", "")
    if when == "Successful Response":  # FastAPI's word for every success
        when = "success"
    return f"| {status} | {', '.join(bodies) or '—'} | {_cell(when)} |"


def operation(method: str, path: str, op: Schema) -> list[str]:
    """One endpoint: what it does, its token, parameters, body and answers."""
    out = [f"### `{method} {path}`", ""]
    if op.get("description"):
        out += [to_markdown(op["description"]), ""]
    token = ("`Authorization: Bearer <token>`, a token of the game (see above)"
             if op.get("security") else "none")
    out += [f"**Token**: {token}.", ""]
    params = op.get("parameters", [])
    if params:
        out += ["| parameter | in | type | default | meaning |", "|---|---|---|---|---|"]
        for p in params:
            node = p.get("schema", {})
            default = f"`{_json(node['default'])}`" if "default" in node else (
                "required" if p.get("required") else "")
            out.append(f"| `{p['name']}` | {p['in']} | {type_of(node)} | {default} | "
                       f"{_cell(p.get('description', ''))} |")
        out.append("")
    body = op.get("requestBody", {}).get("content", {}).get("application/json")
    if body:
        out += [f"**Body**: {type_of(body['schema'])}.", ""]
    out += ["| status | answer | when |", "|---|---|---|"]
    out += [_answer(status, answer) for status, answer in sorted(op["responses"].items())]
    return [*out, ""]


def endpoints(schema: Schema) -> str:
    """Every endpoint of the schema, in its order, then every body's fields."""
    out: list[str] = []
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            out += operation(method.upper(), path, op)
    out += ["## Bodies", "",
            "The JSON bodies of the requests and answers above, field by field.", ""]
    for name, model in sorted(schema.get("components", {}).get("schemas", {}).items()):
        if name in {"HTTPValidationError", "ValidationError"}:
            continue  # FastAPI's own, which the service never answers with
        out += [f"### {name} {{#{_anchor(name)}}}", ""]
        if model.get("description"):
            out += [to_markdown(model["description"]), ""]
        out += [*fields(model), ""]
    return "\n".join(out)


def statuses(schema: Schema) -> str:
    """Every status the endpoints answer, with what it means and where."""
    seen: dict[tuple[int, str], list[str]] = {}
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            for status, answer in op["responses"].items():
                if status.startswith("2"):
                    continue
                key = (int(status), answer.get("description", ""))
                seen.setdefault(key, []).append(f"`{method.upper()} {path}`")
    rows = ["| status | when | endpoints |", "|---|---|---|"]
    for (status, when), where in sorted(seen.items()):
        rows.append(f"| {status} | {_cell(when)} | {', '.join(where)} |")
    return "\n".join(rows)



def codes() -> str:
    """Every error code of :mod:`remis.service.codes`, group by group: its
    status, its params and what it means."""
    from remis.service.codes import GROUPS

    out: list[str] = []
    for title, group in GROUPS.items():
        out += [f"### {title}", "", "| code | status | params | meaning |", "|---|---|---|---|"]
        for name, code in group.items():
            params = ", ".join(f"`{p}`" for p in code.params)
            status = "its own" if code.status is None else str(code.status)
            out.append(f"| `{name}` | {status} | {params} | {_cell(code.meaning)} |")
        out.append("")
    return "\n".join(out)
