"""Fuzz the core's PGN reader through the binding with hypothesis, for a
given time (default 600 s): random bytes and PGN-like text made of real
tokens (tags, move numbers, SAN, comments, variations, NAGs, results, BOMs,
Latin-1 bytes, blank lines).  Every input must give facts, never an exception
or a crash, and the facts must hold together: the games are numbered from 1
in order, offsets grow, an error stands at or after the plies replayed.

    python benchmarks/fuzz_reader.py [SECONDS]
"""

from __future__ import annotations

import sys
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remis import _core

TOKENS = ["1.", "2...", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "O-O-O", "Qxd8+",
          "exd6", "e8=Q", "Kxf7#", "--", "Z0", "{", "}", "{ a comment }", "(", ")", ";",
          "$1", "!?", "??", "1-0", "0-1", "1/2-1/2", "*", "e.p.", "Qxx7", "e4,", "\n",
          "\n\n", " ", "\t", "%", "\r\n", '[Event "x"]\n', '[Variant "Chess960"]\n',
          '[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n', '[FEN "bad fen"]\n',
          '[Variant "Crazyhouse"]\n', '[Termination "Time forfeit"]\n', '[Result "1-0"]\n',
          "\ufeff", "\xe1", "Ke2", "Ke7", "Ng1", "Ng8", "Nf6", "a1h8", "e2e4", "P@e4"]

pgn_like = st.lists(st.sampled_from(TOKENS), max_size=200).map(" ".join)
count = 0


def check(data: bytes) -> None:
    global count
    count += 1
    last_index, last_offset = 0, -1
    for f in _core.GameReader(data):
        index, offset, plies, error = f[0], f[1], f[4], f[7]
        assert index == last_index + 1 and offset > last_offset
        assert error is None or error[0] <= plies + 1
        last_index, last_offset = index, offset
    _core.rule_text(data)


@settings(max_examples=2_000, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.one_of(st.binary(max_size=2000), pgn_like.map(lambda s: s.encode("utf-8")),
                 pgn_like.map(lambda s: s.encode("latin-1", "replace"))))
def fuzz(data: bytes) -> None:
    if time.monotonic() > STOP:
        return
    check(data)


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 600.0
    start = time.monotonic()
    STOP = start + seconds
    while time.monotonic() < STOP:
        fuzz()
    print(f"fuzzed the reader for {time.monotonic() - start:.0f} s: {count:,} inputs, "
          "no exception, no crash")
