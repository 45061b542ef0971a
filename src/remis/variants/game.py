"""Rule on variant games given one per line (``remis game --variant``) and on
single positions (``remis position --variant``).

A game line is a start position and its moves, like a USI ``position``
command without the word ``position``::

    startpos 2h3h 8b7b 3h2h 7b8b
    sfen 8k/9/9/9/9/9/9/9/K8 b R2P 1 moves R*1b 1a2a ...
    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 ...

``sfen``/``fen`` and ``moves`` are optional.  A shogi line may end in
``declare`` (the side to move declared a win by entering king: the CSA
27-point rule, as ``%KACHI`` in a CSA record) or ``impasse`` (the game was
adjudicated as an impasse: the JSA 24-point rule).  An optional trailing
``result 1-0|0-1|1/2-1/2|*`` records the result (``1-0``: the first player,
sente or red, won) for ``remis audit --variant``.  Blank lines and lines
starting with ``#`` are skipped.  Errors name the line and the ply and never
stop the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from remis.variants.history import VariantError, VariantHistory
from remis.variants.messages import VariantRuling
from remis.variants.notation import xiangqi_notation
from remis.variants.rules import rules_for

_FEN_TAIL = re.compile(r"^(?:-|\d+)$")

#: the results a game line may record: the first player (sente, red) won,
#: the second won, a draw, or unknown
LINE_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def split_result(text: str) -> tuple[str, str | None]:
    """Split the optional trailing ``result R`` off a game line: the rest of
    the line and the recorded result (None when the line records none).

    >>> split_result("startpos 7g7f 3c3d result 1/2-1/2")
    ('startpos 7g7f 3c3d', '1/2-1/2')
    >>> split_result("startpos 7g7f")
    ('startpos 7g7f', None)
    """
    tokens = text.split()
    if "result" not in tokens:
        return text, None
    i = tokens.index("result")
    if i != len(tokens) - 2 or tokens[-1] not in LINE_RESULTS:
        raise VariantError("'result' must come last, followed by one of "
                           + ", ".join(LINE_RESULTS))
    return " ".join(tokens[:i]), tokens[-1]


#: the words that end a shogi game line with a claim, and what they claim
LINE_CLAIMS = {"declare": "declaration", "impasse": "impasse"}


def split_claim(moves: list[str]) -> tuple[list[str], str | None]:
    """Split a trailing ``declare`` / ``impasse`` off a game line's moves.

    >>> split_claim(["7g7f", "declare"])
    (['7g7f'], 'declaration')
    >>> split_claim(["7g7f"])
    (['7g7f'], None)
    """
    if moves and moves[-1] in LINE_CLAIMS:
        return moves[:-1], LINE_CLAIMS[moves[-1]]
    return moves, None


def split_game_line(text: str, variant: str) -> tuple[str, list[str]]:
    """Split a game line into its start position (``"startpos"`` or the
    SFEN/FEN) and its moves.

    >>> split_game_line("startpos moves 7g7f 3c3d", "shogi")
    ('startpos', ['7g7f', '3c3d'])
    >>> split_game_line("sfen 8k/9/9/9/9/9/9/9/K8 b 2P 1 P*1b", "shogi")
    ('8k/9/9/9/9/9/9/9/K8 b 2P 1', ['P*1b'])
    >>> split_game_line("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1 e2e3", "xiangqi")
    ('4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1', ['e2e3'])
    """
    tokens = text.split()
    if tokens and tokens[0] == "position":
        tokens = tokens[1:]
    if tokens and tokens[0] in ("sfen", "fen"):
        tokens = tokens[1:]
    if not tokens:
        raise VariantError("empty game line")
    if tokens[0] == "startpos":
        start, rest = "startpos", tokens[1:]
    elif "moves" in tokens:
        i = tokens.index("moves")
        start, rest = " ".join(tokens[:i]), tokens[i:]
    else:
        # SFEN: board, side, hand[, number]; FEN: board, side[, - - n n]
        n = min(3 if variant == "shogi" else 2, len(tokens))
        limit = 4 if variant == "shogi" else 6
        while n < min(len(tokens), limit) and _FEN_TAIL.match(tokens[n]):
            n += 1
        start, rest = " ".join(tokens[:n]), tokens[n:]
    if rest and rest[0] == "moves":
        rest = rest[1:]
    return start, rest


@dataclass
class VariantGameRuling:
    """The ruling on one game line (see ``remis game --variant ... --json``).

    >>> rule_on_line("startpos 7g7f", "shogi").plies
    1
    """

    line: int
    variant: str
    start: str
    plies: int
    end: VariantRuling | None
    error: dict[str, Any] | None
    moves_after_end: int = 0
    #: the result the record gives (None: it gives none)
    recorded_result: str | None = None
    #: plies in the record, readable or not
    recorded_plies: int = 0
    #: 1-based number of the game in its file (0: not from a file)
    game: int = 0
    #: the record's headers (KIF/CSA: event, site, date, players)
    headers: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object printed by ``remis game --variant ... --json``.

        >>> rule_on_line("startpos 7g7f", "shogi", line=3).to_json()["plies"]
        1
        """
        return {
            "game": self.game,
            "line": self.line,
            "variant": self.variant,
            "start": self.start,
            "plies": self.plies,
            "end": None if self.end is None else self.end.to_json(),
            "moves_after_end": self.moves_after_end,
            "recorded_result": self.recorded_result,
            "headers": self.headers,
            "error": self.error,
        }


def _error(line: int, ply: int, message: str) -> dict[str, Any]:
    return {"line": line, "ply": ply, "message": message}


def rule_on_line(text: str, variant: str, *, line: int = 1, repetitions: int | None = None,
                 notation: str | None = None) -> VariantGameRuling:
    """Replay one game line and rule on it; a bad position or move is
    reported in ``error`` (with the line and ply), keeping what came before.
    Moves after the end of the game are counted, not played.

    >>> g = rule_on_line("startpos " + "2h3h 8b7b 3h2h 7b8b " * 3, "shogi")
    >>> g.end.termination, g.end.ply, g.error
    ('repetition', 12, None)
    >>> rule_on_line("startpos 7g7f 7g7f", "shogi", line=5).error
    {'line': 5, 'ply': 2, 'message': 'illegal move 7g7f for Gote'}
    >>> rule_on_line("startpos 7g7f result 0-1", "shogi").recorded_result
    '0-1'
    """
    try:
        text, result = split_result(text)
        start, moves = split_game_line(text, variant)
    except VariantError as exc:
        return VariantGameRuling(line, variant, text, 0, None, _error(line, 0, str(exc)))
    moves, claim = split_claim(moves)
    if claim is not None and variant != "shogi":
        return VariantGameRuling(line, variant, start, 0, None, _error(
            line, 0, f"'declare' and 'impasse' end shogi games only, not {variant}"))
    return rule_on_moves(start, moves, variant, line=line, repetitions=repetitions,
                         notation=notation, recorded_result=result, claim=claim)


def rule_on_moves(start: str, moves: list[str], variant: str, *, line: int = 1,
                  repetitions: int | None = None, notation: str | None = None,
                  recorded_result: str | None = None,
                  unread: dict[str, Any] | None = None,
                  claim: str | None = None) -> VariantGameRuling:
    """Replay ``moves`` from ``start`` (``startpos``, an SFEN or a FEN) and
    rule on the game.  ``unread`` (``{"ply", "message"}``, and the ``line``
    of the file where it is, if known) says that the record could not be
    read from that ply on (``moves`` stops before it): it becomes the error
    unless the game ended before it.  ``claim`` (shogi) says how the record
    ends when every move was played and no rule ended the game before:
    ``"declaration"`` (the side to move declared a win by entering king,
    ruled by the CSA 27-point rule) or ``"impasse"`` (an adjudicated impasse,
    ruled by the JSA 24-point rule; not ruled unless both kings entered).

    >>> g = rule_on_moves("startpos", ["7g7f"], "shogi", claim="declaration")
    >>> g.end.termination, g.end.result
    ('impasse_declaration', '1-0')

    >>> g = rule_on_moves("startpos", ["7g7f"], "shogi", unread={"ply": 2, "message": "x"})
    >>> g.plies, g.error, g.recorded_plies
    (1, {'line': 1, 'ply': 2, 'message': 'x'}, 2)
    """
    recorded = len(moves) + (unread is not None)
    if notation is None and variant == "xiangqi":
        notation = xiangqi_notation(moves)
    try:
        h = VariantHistory(rules_for(variant, repetitions), start, notation=notation)
    except VariantError as exc:
        return VariantGameRuling(line, variant, start, 0, None, _error(line, 0, str(exc)),
                                 recorded_result=recorded_result, recorded_plies=recorded)
    error = None
    try:
        played = h.extend(moves)
    except VariantError as exc:
        error = _error(line, exc.ply, str(exc))
        played = h.ply
    end = h.end
    if end is None and claim is not None and error is None and unread is None:
        end = _claim_end(h, claim)
    if end is not None:
        error = None  # a bad move after the end is one of the moves after the end
    elif error is None and unread is not None:
        error = _error(unread.get("line", line), unread["ply"], unread["message"])
    after = recorded - played if end is not None else 0
    return VariantGameRuling(line, variant, start, h.ply, end, error, after,
                             recorded_result=recorded_result, recorded_plies=recorded)


def _claim_end(h: VariantHistory, claim: str) -> VariantRuling | None:
    """The ruling on the claim that ends a shogi record (see :func:`rule_on_moves`)."""
    from remis.variants.impasse import declaration_ruling, impasse_ruling

    if claim == "declaration":
        return declaration_ruling(h.board, h.ply)
    try:
        return impasse_ruling(h.board, h.ply)
    except ValueError:  # the kings have not both entered: no rule to apply
        return None


def rule_on_lines(lines: Iterable[str], variant: str, *, repetitions: int | None = None,
                  notation: str | None = None) -> Iterator[VariantGameRuling]:
    """Rule on every game line (1-based line numbers; blank and ``#`` lines
    are skipped).

    >>> [g.plies for g in rule_on_lines(["# two games", "startpos 7g7f", "", "startpos"],
    ...                                   "shogi")]
    [1, 0]
    """
    for n, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        yield rule_on_line(text, variant, line=n, repetitions=repetitions, notation=notation)


def rule_on_variant_position(text: str, variant: str, *, repetitions: int | None = None,
                             notation: str | None = None) -> dict[str, Any]:
    """The ``remis position --variant --json`` object: the position (and
    moves, if given) replayed, its automatic end (or the ruling on a trailing
    ``declare`` / ``impasse``), check and legal move count; for shogi also
    whether the side to move may declare a win under the CSA 27-point rule
    (``declaration``) and both sides' points under the JSA 24-point rule
    (``impasse``).

    >>> out = rule_on_variant_position("R3k4/R8/9/9/9/9/9/9/9/3K5 b", "xiangqi")
    >>> out["end"]["termination"], out["end"]["result"]
    ('checkmate', '1-0')
    """
    g = rule_on_line(text, variant, repetitions=repetitions, notation=notation)
    if g.error is not None:
        raise ValueError(g.error["message"] if g.error["ply"] == 0
                         else f"ply {g.error['ply']}: {g.error['message']}")
    start, moves = split_game_line(text, variant)
    h = VariantHistory(rules_for(variant, repetitions), start,
                       notation=notation or (xiangqi_notation(moves) if variant == "xiangqi"
                                             else None))
    h.extend(moves[:g.plies])
    out: dict[str, Any] = {
        "variant": variant,
        "position": h.position,
        "side_to_move": h.side_to_move,
        "in_check": h.is_check(),
        "legal_moves": len(h.legal_moves()),
        "occurrences": list(h.occurrences()),
        "end": None if g.end is None else g.end.to_json(),
    }
    if variant == "shogi":
        from remis.variants.impasse import declaration, impasse_count

        out["declaration"] = declaration(h.board, h.is_check()).to_json()
        out["impasse"] = impasse_count(h.board).to_json()
    return out
