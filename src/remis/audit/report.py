"""``--report report.html``: one self-contained HTML page (no network, no
external files) with the summary table, the plots and the first findings.

The plots are drawn with matplotlib (Agg backend) and embedded as inline SVG:
findings by check, findings per 1,000 games by time control, findings by
rating band, and the material left to the player with time at time forfeits.
"""

from __future__ import annotations

import html
import io
from typing import Any

from remis.audit.stats import Summary

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:4px 8px}
th{background:#eee;text-align:left}td.n{text-align:right}
figure{display:inline-block;margin:0.5em;vertical-align:top}figcaption{font-size:90%}
.small{font-size:85%;color:#555}
"""


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def _bar(title: str, data: dict[str, float], xlabel: str, ylabel: str,
         numeric_keys: bool = False) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = sorted(data, key=lambda k: int(k) if numeric_keys else k) if numeric_keys else (
        sorted(data, key=lambda k: (-data[k], k)))
    fig, ax = plt.subplots(figsize=(5.2, 3.2))
    ax.bar(range(len(keys)), [data[k] for k in keys], color="#4a7ab5")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, rotation=45 if len(keys) > 4 else 0, ha="right" if len(
        keys) > 4 else "center", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=9)
    if not keys:
        ax.text(0.5, 0.5, "none", ha="center", va="center", transform=ax.transAxes)
    out = _svg(fig)
    plt.close(fig)
    return out


def _material_plot(summary: Summary) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    allm = {int(k): v for k, v in summary.get("tf_material", {}).items()}
    finds = {int(k): v for k, v in summary.get("tf_material_findings", {}).items()}
    xs = list(range(0, max([*allm, *finds, 39]) + 1))
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    ax.bar(xs, [allm.get(x, 0) for x in xs], color="#9bb8d8", label="all time forfeits")
    ax.bar(xs, [finds.get(x, 0) for x in xs], color="#c0392b", label="6.9 findings")
    ax.set_title("Material left to the player with time at time forfeits", fontsize=10)
    ax.set_xlabel("material in pawn units (P 1, N/B 3, R 5, Q 9)", fontsize=9)
    ax.set_ylabel("games", fontsize=9)
    ax.legend(fontsize=8)
    out = _svg(fig)
    plt.close(fig)
    return out


def _table(head: list[str], rows: list[list[Any]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = []
    for r in rows:
        cells = "".join(
            f'<td class="n">{v:,}</td>' if isinstance(v, int) else f"<td>{html.escape(str(v))}</td>"
            for v in r)
        body.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{th}</tr>{''.join(body)}</table>"


def render_report(summary: Summary, findings: list[dict[str, Any]], *, title: str = "remis audit",
                  laws: str = "current", errors: list[str] | None = None) -> str:
    """The HTML page for ``summary`` and a sample of ``findings`` (rows as
    read back from the output).

    >>> from remis.audit.stats import new_summary
    >>> page = render_report(new_summary(), [])
    >>> page.startswith("<!DOCTYPE html>"), "<svg" in page, "http" in page.split("<svg")[0]
    (True, True, False)
    """
    s = summary
    games = int(s.get("games", 0))
    rows_check = [[k, v] for k, v in sorted(s.get("by_check", {}).items())]
    gf = s.get("games_by_file", {})
    rows_file = [[k, int(gf.get(k, 0)), int(s.get("by_file", {}).get(k, 0))] for k in sorted(gf)]
    gtc = s.get("games_by_time_control", {})
    ftc = s.get("by_time_control", {})
    rows_tc = [[k, int(gtc.get(k, 0)), int(ftc.get(k, 0))] for k in sorted(gtc)]
    per_k = {k: 1000.0 * ftc.get(k, 0) / n for k, n in gtc.items() if n}
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{games:,} games audited, {int(s.get('findings', 0)):,} findings, "
        f"{int(s.get('skipped_variants', 0)):,} games of other variants skipped. "
        f"Laws applied: <b>{html.escape(laws)}</b>.</p>",
        "<h2>Summary</h2>",
        _table(["check", "findings"], rows_check),
        _table(["file", "games", "findings"], rows_file),
        _table(["time control", "games", "findings"], rows_tc),
        "<h2>Plots</h2>",
        f"<figure>{_bar('Findings by check', dict(s.get('by_check', {})), 'check', 'findings')}"
        "</figure>",
        f"<figure>{_bar('Findings per 1,000 games by time control', per_k, 'time control', 'per 1,000 games')}"  # noqa: E501
        "</figure>",
        f"<figure>{_bar('Findings by rating band', dict(s.get('by_rating_band', {})), 'mean rating', 'findings', numeric_keys=False)}"  # noqa: E501
        "</figure>",
        f"<figure>{_material_plot(s)}</figure>",
    ]
    if errors:
        parts.append("<h2>Input errors</h2><ul>" + "".join(
            f"<li>{html.escape(e)}</li>" for e in errors) + "</ul>")
    parts.append(f"<h2>Findings (first {len(findings)})</h2>")
    rows = []
    for f in findings:
        hd = f.get("headers") or {k: f.get(k.lower(), "") for k in ("Site", "White", "Black")}
        who = f"{hd.get('White', '?')} - {hd.get('Black', '?')}"
        rows.append([f.get("check", ""), f"{f.get('file', '')}#{f.get('game', '')}",
                     hd.get("Site", ""), who, f.get("recorded_result", ""),
                     f.get("result_under_laws", "") or "", f.get("article", ""),
                     f.get("explanation", "")])
    parts.append(_table(["check", "game", "site", "players", "recorded", "under the Laws",
                         "article", "explanation"], rows))
    parts.append('<p class="small">Made by remis audit. Everything is in this file.</p>')
    parts.append("</body></html>")
    return "\n".join(parts)
