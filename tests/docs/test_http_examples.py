"""Every HTTP example of the README and the documentation gets the answer the
page shows: its status, the headers shown and its body.

An example is either an exchange written as HTTP (an ```` ```http ```` block
with the request, followed by one with the answer) or a ``$ curl`` command in
a ```` ```console ```` block with its output under it (``curl -i`` shows the
status line and the headers; without ``-i`` the answer must be a success).
The requests of a page are sent in order to one service, in process, over a
fresh database: ``$ID``, ``$WHITE``, ``$BLACK``, ``$ARBITER`` and
``$SPECTATOR`` stand for the id and the tokens of the game the page created
last.  In a body, ``…`` or ``...`` stands for any text, and JSON is compared
without the spaces after ``:`` and ``,`` that the pages may show."""

from __future__ import annotations

import contextlib
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the service extra is not installed")
pytest.importorskip("httpx", reason="httpx is not installed")

from fastapi.testclient import TestClient

from remis.service.app import create_app
from tests.docs import pages
from tests.docs.pages import PAGES, ROOT

_BLOCK = re.compile(r"^```(http|console)[^\n]*\n(.*?)^```", re.M | re.S)
_VARIABLES = ("ID", "WHITE", "BLACK", "ARBITER", "SPECTATOR")


@dataclass
class Example:
    """One documented request and the answer the page shows."""

    where: str
    method: str
    path: str
    headers: dict[str, str]
    body: str | None
    #: the documented status; None: any success (curl without -i)
    status: int | None
    answer_headers: dict[str, str] = field(default_factory=dict)
    answer: str = ""


def _parse_request(text: str, where: str) -> Example:
    head, _, body = text.partition("\n\n")
    first, *lines = head.splitlines()
    method, path, _version = first.split()
    headers = dict(_header(line) for line in lines)
    return Example(where, method, path, headers, body.strip() or None, None)


def _header(line: str) -> tuple[str, str]:
    name, _, value = line.partition(":")
    return name.strip(), value.strip()


def _parse_answer(example: Example, text: str) -> None:
    head, _, body = text.partition("\n\n")
    first, *lines = head.splitlines()
    match = re.fullmatch(r"HTTP/1\.1 (\d{3})(?: .*)?", first.strip())
    assert match, f"{example.where}: the answer starts with {first!r}, not 'HTTP/1.1 NNN'"
    example.status = int(match.group(1))
    example.answer_headers = dict(_header(line) for line in lines if line.strip())
    example.answer = body.strip()


def _parse_curl(command: str, output: str, where: str) -> Example:
    args = shlex.split(command)[1:]
    method, headers, body, url, include = "GET", {}, None, None, False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-X", "--request"):
            method, i = args[i + 1], i + 1
        elif arg in ("-H", "--header"):
            name, value = _header(args[i + 1])
            headers[name], i = value, i + 1
        elif arg in ("-d", "--data", "--data-raw", "--json"):
            body, i = args[i + 1], i + 1
            method = "POST" if method == "GET" else method
        elif arg.startswith("-") and not arg.startswith("--"):
            include = include or "i" in arg
        elif not arg.startswith("-"):
            url = arg
        i += 1
    assert url is not None, f"{where}: no URL in {command!r}"
    path = "/" + url.split("/", 1)[1] if "/" in url else "/"
    example = Example(where, method, path, headers, body, None)
    if include:
        _parse_answer(example, output)
    else:
        example.answer = output.strip()
    return example


def examples(page: Path, text: str | None = None) -> list[Example]:
    """The HTTP examples of ``page`` (or of ``text``, as if it were the page), in order."""
    text = page.read_text(encoding="utf-8") if text is None else text
    rel = page.relative_to(ROOT)
    found: list[Example] = []
    waiting: Example | None = None
    for block in _BLOCK.finditer(text):
        kind, content = block.group(1), block.group(2)
        line = text.count("\n", 0, block.start()) + 1
        where = f"{rel}:{line}"
        if kind == "http":
            if content.startswith("HTTP/"):
                assert waiting is not None, f"{where}: an answer without its request"
                _parse_answer(waiting, content)
                found.append(waiting)
                waiting = None
                continue
            assert waiting is None, f"{waiting.where}: a request without its answer"
            waiting = _parse_request(content, where)
            continue
        for command, output, offset in pages.commands(content):
            if command.startswith("curl "):
                command = command.replace("\\\n", " ").split(" #")[0].strip()
                found.append(_parse_curl(command, output, f"{rel}:{line + 1 + offset}"))
    assert waiting is None, f"{waiting.where}: a request without its answer"
    return found


def _compact(text: str) -> str:
    """JSON (or text like it, with ``…`` in it) without the spaces after ``:``
    and ``,`` and inside brackets: as the service writes it, whether a page
    shows it spaced or not (inside strings too, on both sides alike)."""
    with contextlib.suppress(ValueError):
        return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    text = re.sub(r"\s+", " ", text.strip())
    return re.sub(r"([,:\[{]) | (?=[\]}])", r"\1", text)


def matches(documented: str, actual: str) -> bool:
    """Whether ``actual`` is ``documented`` with each ``…`` (or ``...``) filled in.

    >>> matches('{"id": "…", "n": 1}', '{"id":"x7","n":1}')
    True
    >>> matches('{"n": 1, ...}', '{"n":2,"m":1}')
    False
    """
    parts = re.split(r"…|\.\.\.", _compact(documented))
    pattern = ".*?".join(re.escape(p) for p in parts)
    return re.fullmatch(pattern, _compact(actual), re.S) is not None


def _fill(text: str, values: dict[str, str]) -> str:
    for name in _VARIABLES:
        if name in values:
            text = text.replace(f"${name}", values[name]).replace(f"${{{name}}}", values[name])
    return text


def _send(client: TestClient, ex: Example, values: dict[str, str]) -> tuple[int, dict[str, str],
                                                                             str]:
    path, headers = _fill(ex.path, values), {k: _fill(v, values) for k, v in ex.headers.items()}
    body = _fill(ex.body, values).encode() if ex.body is not None else None
    if path.endswith("/stream"):
        events = max(1, ex.answer.count("data:"))
        with client.stream(ex.method, path, headers=headers) as r:
            text = ""
            for chunk in r.iter_text():
                text += chunk
                if text.count("\n\n") >= events:
                    break
            return r.status_code, dict(r.headers), text
    r = client.request(ex.method, path, headers=headers, content=body)
    return r.status_code, dict(r.headers), r.text


def run(found: list[Example]) -> list[str]:
    """Send the examples in order to a fresh service; what differs from the pages."""
    app = create_app("sqlite:///:memory:", mate_workers=0, search_workers=0)
    values: dict[str, str] = {}
    failures = []
    with TestClient(app) as client:
        for ex in found:
            status, headers, text = _send(client, ex, values)
            if ex.method == "POST" and _fill(ex.path, values) == "/v1/games" and status == 201:
                created = json.loads(text)
                values = {"ID": created["id"], **{k.upper(): v for k, v in
                                                  created["tokens"].items()}}
            got = {k.lower(): v for k, v in headers.items()}
            wrong = []
            if ex.status is None and not 200 <= status < 300:
                wrong.append(f"status {status}, not a success")
            elif ex.status is not None and status != ex.status:
                wrong.append(f"status {status}, not {ex.status}")
            for name, value in ex.answer_headers.items():
                if not matches(value, got.get(name.lower(), "")):
                    wrong.append(f"header {name}: {got.get(name.lower())!r}, not {value!r}")
            if ex.answer and not matches(_fill(ex.answer, values), text):
                wrong.append(f"body {text[:2000]}")
            if wrong:
                failures.append(f"{ex.where}: {ex.method} {ex.path}: " + "; ".join(wrong))
    return failures


PAGES_WITH_EXAMPLES = [p for p in PAGES if examples(p)]


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES,
                         ids=[str(p.relative_to(ROOT)) for p in PAGES_WITH_EXAMPLES])
def test_every_example_gets_the_documented_answer(page: Path) -> None:
    failures = run(examples(page))
    assert not failures, "\n".join(failures)


def test_the_examples_are_found() -> None:
    """The HTTP reference's examples at the least, each with a status (a test
    that finds none would pass for nothing)."""
    reference = examples(ROOT / "docs" / "reference" / "http.md")
    assert len(reference) >= 5
    assert {409, 422, 401} <= {ex.status for ex in reference}


WRONG = """
```http
POST /v1/games HTTP/1.1
Content-Type: application/json

{"config": {}}
```

```http
HTTP/1.1 201 Created
```

```http
POST /v1/games/$ID/events HTTP/1.1
Authorization: Bearer $BLACK
Content-Type: application/json

{"type": "move", "player": "black", "move": "e5"}
```

```http
HTTP/1.1 422 Unprocessable Entity

{"detail": "event 1 refused: black cannot move: white has the move"}
```

```console
$ curl -s localhost:8000/v1/games/$ID -H "Authorization: Bearer $WHITE"
{"id": "$ID", "state": {"log": [...]}, ...}
```
"""


def test_a_page_that_says_otherwise_fails() -> None:
    """The status of an event the Laws refuse (409, not 422), and a state's
    ``rulings`` (not a ``log``)."""
    failures = run(examples(ROOT / "README.md", WRONG))
    assert len(failures) == 2, failures
    assert "status 409, not 422" in failures[0]
    assert failures[1].startswith("README.md:") and "GET /v1/games/$ID: body" in failures[1]
