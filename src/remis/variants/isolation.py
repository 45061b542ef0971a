"""cshogi's parsers run in a child Python process.  Their C++ code crashes
the whole process (a segmentation fault, an abort) on some malformed input:
CSA position lines (an over-long ``P1`` row, a ``P+`` line with ``00AL``),
KIF moves that put an impossible piece on the board, and whatever input
nobody has met yet.  Such a crash must not stop ``remis game`` or an audit,
nor lose the games read before it: each game is parsed in the child, and a
crash (or a game taking over :data:`PARSE_SECONDS`) costs that game alone,
reported as a :class:`~remis.variants.kifutext.RecordError`; a new child is
started for the next.

One child serves a process (and its threads, one game at a time) for as long
as it lives: it ends when its input closes, i.e. with the process that
started it.  A forked process (an audit worker) starts its own.

The child (:mod:`remis.variants.parser_child`, the parsers' side) is sent one
JSON request per line, ``[format, text, line, marker]``, and answers one JSON
line.  ``marker`` is the value of
:data:`ABORT_ENV` in the parent, when set: a test hook, the child then
aborts (``os.abort()``) on a game whose text contains it, as a real crash
would.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from typing import Any, ClassVar

from remis.variants.kifutext import RecordError

#: seconds one game may take in the parser before it counts as hung
PARSE_SECONDS = 30.0

#: test hook: the child aborts on a game whose text contains this variable's value
ABORT_ENV = "REMIS_TEST_PARSER_ABORT"

#: the formats the child parses
FORMATS = ("csa", "kif", "ki2")

# The child needs the parsers only: the packages ``remis`` and
# ``remis.variants`` are made without running their ``__init__`` (which
# imports the arbiter and python-chess: 0.25 s of the child's start).
_CHILD = """import sys, types
for name, path in (("remis", sys.argv[1]), ("remis.variants", sys.argv[2])):
    sys.modules[name] = types.ModuleType(name)
    sys.modules[name].__path__ = [path]
sys.modules["remis"].variants = sys.modules["remis.variants"]
from remis.variants.parser_child import serve_parser
serve_parser()
"""
_PACKAGES = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
             os.path.dirname(os.path.abspath(__file__)))


class IsolatedParser:
    """The child parser of this process (see the module's text).

    >>> IsolatedParser().parse("csa", "PI\\n+\\n+7776FU\\n")[1]
    ['7g7f']
    """

    _proc: ClassVar[subprocess.Popen[str] | None] = None
    _lock: ClassVar[threading.Lock] = threading.Lock()  # one game at a time
    _inherited: ClassVar[list[subprocess.Popen[str]]] = []  # kept, not closed, after a fork

    def parse(self, fmt: str, text: str, line: int = 1) -> Any:
        """Parse one game in the child (see
        :func:`remis.variants.parser_child.parse_in_process`);
        raises RecordError if the parser crashed or hung, and ValueError with
        the parser's message for what it refused.

        >>> try:
        ...     IsolatedParser().parse("csa", "P1 *  *  *  * -OU *  *  *  *  *  * \\n+\\n")
        ... except RecordError as exc:
        ...     print(exc)
        the CSA parser crashed on this game
        """
        if fmt not in FORMATS:
            raise ValueError(f"no parser for {fmt!r}")
        request = json.dumps([fmt, text, line, os.environ.get(ABORT_ENV)], ensure_ascii=False)
        with IsolatedParser._lock:
            answer = self._ask(request)
        if answer is None:
            raise RecordError(f"the {fmt.upper()} parser crashed on this game")
        if answer == "":
            raise RecordError(f"the {fmt.upper()} parser did not finish this game within "
                              f"{PARSE_SECONDS:g} s")
        out = json.loads(answer)
        if not out["ok"]:  # CSA: the parser's own message, which read_csa reads
            raise ValueError(out["error"] if fmt == "csa" else f"{out['type']}: {out['error']}")
        return out["value"]

    @staticmethod
    def _ask(request: str) -> str | None:
        """The child's answer line; None when it died, "" when it hung (it
        is then ended)."""
        cls = IsolatedParser
        if cls._proc is None or cls._proc.poll() is not None:
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
            cls._proc = subprocess.Popen(
                [sys.executable, "-c", _CHILD, *_PACKAGES], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
                env=env)
        proc = cls._proc
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(request + "\n")
            proc.stdin.flush()
            ready = select.select([proc.stdout], [], [], PARSE_SECONDS)[0]
            line = proc.stdout.readline() if ready else ""
        except OSError:
            ready, line = [proc.stdout], ""
        if not line:
            cls._end()
            return None if ready else ""
        return line

    @classmethod
    def stop(cls) -> None:
        """End this process's child (a new one starts on the next parse).

        >>> IsolatedParser.stop(); IsolatedParser._proc is None
        True
        """
        with cls._lock:
            cls._end()

    @classmethod
    def _end(cls) -> None:
        proc, cls._proc = cls._proc, None
        if proc is not None:
            proc.kill()
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()

    @classmethod
    def _after_fork(cls) -> None:
        """In a forked process: the parent's child is not ours to use or end."""
        if cls._proc is not None:
            cls._inherited.append(cls._proc)
        cls._proc, cls._lock = None, threading.Lock()


os.register_at_fork(after_in_child=IsolatedParser._after_fork)
