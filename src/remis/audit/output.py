"""Writing findings: JSON Lines, CSV or Parquet, append-only and in order.

JSON Lines and CSV are written in place, one task's findings in one write,
so the file is valid after every task; a resumed run first cuts the file back
to the size recorded in the checkpoint.  Parquet cannot be appended to, so
the findings go to ``OUT.partial.jsonl`` during the run and are converted to
Parquet (with pyarrow) when the run ends or is interrupted.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from typing import IO, Any

from remis.audit.checks import IDENT_HEADERS, Finding

FORMATS = ("jsonl", "csv", "parquet")

CSV_COLUMNS = ["check", "file", "game", "offset", *[h.lower() for h in IDENT_HEADERS],
               "recorded_result", "termination", "result_under_laws", "article", "ply",
               "time_control", "laws", "explanation", "evidence"]


def finding_row(f: Finding) -> dict[str, Any]:
    """A finding as one flat row (CSV, Parquet): identifying headers as
    columns, the evidence as a JSON string.

    >>> f = Finding("time_forfeit", 3, 120, {"White": "a"}, "1-0", "Time forfeit",
    ...             "1/2-1/2", "6.9", 40, {"k": 1}, "x", "current")
    >>> finding_row(f)["white"], finding_row(f)["evidence"]
    ('a', '{"k": 1}')
    """
    j = f.to_json()
    row = {k: j[k] for k in CSV_COLUMNS if k in j and k != "evidence"}
    for h in IDENT_HEADERS:
        row[h.lower()] = f.headers.get(h, "")
    row["evidence"] = json.dumps(f.evidence, ensure_ascii=False, sort_keys=True)
    return row


class FindingWriter:
    """Appends findings to a file (or stdout) and reports its size.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "f.jsonl")
    >>> w = FindingWriter(p, "jsonl")
    >>> w.write([Finding("illegal_move", 1, 0, {}, "*", None, None, "7.5", 3, {}, "x", "c")]) > 0
    True
    >>> w.close(); read_findings(p)[0]["ply"]
    3
    """

    def __init__(self, out: str | None, fmt: str, keep_bytes: int = 0) -> None:
        self.fmt = fmt
        self.out = out
        self.final: str | None = None
        target = out
        if fmt == "parquet":
            if out in (None, "-"):
                raise ValueError("--format parquet needs --out FILE")
            self.final = out
            target = f"{out}.partial.jsonl"
        self._stdout = target in (None, "-")
        self._fh: IO[bytes]
        if self._stdout:
            self._fh = sys.stdout.buffer
            self.size = 0
        else:
            assert target is not None
            mode = "r+b" if keep_bytes and os.path.exists(target) else "wb"
            self._fh = open(target, mode)  # noqa: SIM115 - closed in close()
            self._fh.seek(keep_bytes if mode == "r+b" else 0)
            self._fh.truncate()
            self.size = self._fh.tell()
        self.path = target
        if fmt == "csv" and self.size == 0:
            self._emit(self._csv([], header=True))

    def _csv(self, findings: list[Finding], header: bool = False) -> bytes:
        buf = io.StringIO()
        w = csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n")
        if header:
            w.writeheader()
        for f in findings:
            w.writerow(finding_row(f))
        return buf.getvalue().encode("utf-8")

    def _emit(self, data: bytes) -> None:
        if data:
            self._fh.write(data)
            self._fh.flush()
            self.size += len(data)

    def write(self, findings: list[Finding]) -> int:
        """Append ``findings`` in one write; returns the file size after it.

        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "f.csv")
        >>> w = FindingWriter(p, "csv")
        >>> header = w.size
        >>> f = Finding("illegal_move", 2, 0, {"White": "a"}, "*", None, None, "7.5", 5,
        ...             {}, "x", "c")

        >>> w.write([f]) > header, w.write([]) == w.size == os.path.getsize(p)
        (True, True)
        >>> w.close()
        """
        if self.fmt == "csv":
            data = self._csv(findings)
        else:
            data = "".join(json.dumps(f.to_json(), ensure_ascii=False) + "\n"
                           for f in findings).encode("utf-8")
        self._emit(data)
        return self.size

    def close(self) -> None:
        """Flush, close, and for Parquet convert what was written.

        >>> import os, tempfile
        >>> d = tempfile.mkdtemp()
        >>> w = FindingWriter(os.path.join(d, "f.parquet"), "parquet")
        >>> sorted(os.listdir(d))
        ['f.parquet.partial.jsonl']
        >>> w.close()
        >>> "f.parquet" in os.listdir(d)
        True
        """

        if self._stdout:
            self._fh.flush()
            return
        if not self._fh.closed:
            self._fh.close()
        if self.final is not None and self.path is not None:
            jsonl_to_parquet(self.path, self.final)


def open_writer(out: str | None, fmt: str, keep_bytes: int = 0) -> FindingWriter:
    """A writer for ``fmt`` to ``out`` (None or ``-``: stdout), keeping the
    first ``keep_bytes`` of an existing file (resume).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "f.csv")
    >>> w = open_writer(p, "csv"); w.close(); open(p).read().split(",")[:2]
    ['check', 'file']
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    return FindingWriter(out, fmt, keep_bytes)


def read_findings(path: str, fmt: str = "jsonl", limit: int | None = None
                  ) -> list[dict[str, Any]]:
    """Read findings back (as rows of dicts) from an audit output file.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "f.jsonl")
    >>> _ = open(p, "w").write('{"check": "time_forfeit"}\\n')
    >>> read_findings(p)
    [{'check': 'time_forfeit'}]
    """
    out: list[dict[str, Any]] = []
    if fmt == "parquet":
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
        return rows[:limit] if limit is not None else rows
    with open(path, encoding="utf-8", newline="") as f:
        it: Any = csv.DictReader(f) if fmt == "csv" else (json.loads(line) for line in f)
        for row in it:
            if limit is not None and len(out) >= limit:
                break
            out.append(dict(row))
    return out


def jsonl_to_parquet(src: str, dst: str) -> None:
    """Convert a JSON Lines findings file to Parquet (flat rows, see
    :func:`finding_row`); an empty input gives an empty table with the columns.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); src = os.path.join(d, "f.jsonl")
    >>> _ = open(src, "w")
    >>> jsonl_to_parquet(src, os.path.join(d, "f.parquet"))
    >>> read_findings(os.path.join(d, "f.parquet"), "parquet")
    []
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols: dict[str, list[Any]] = {c: [] for c in CSV_COLUMNS}
    with open(src, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            j = json.loads(line)
            f_ = Finding(j["check"], j["game"], j["offset"], j["headers"], j["recorded_result"],
                         j["termination"], j["result_under_laws"], j["article"], j["ply"],
                         j["evidence"], j["explanation"], j["laws"], j["file"],
                         j["time_control"])
            for k, v in finding_row(f_).items():
                cols[k].append(v)
    types = {"game": pa.int64(), "offset": pa.int64(), "ply": pa.int64()}
    table = pa.table({c: pa.array(v, type=types.get(c, pa.string())) for c, v in cols.items()})
    tmp = dst + ".tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, dst)
