"""The core's facts turned into rulings: :class:`~remis.ruling.Ruling` and
:class:`~remis.ruling.Claim` objects with their message keys and parameters,
and the engine's verdicts with their reasons in words.

The core (``remis._core``) returns plain tuples; this module is the one place
that reads them, so the batch (``remis game``, the audit) and the live
history (:class:`remis.History`) word their rulings alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import chess

from remis.laws import CURRENT, Laws, fifty_rule
from remis.messages import render
from remis.reasons import REASONS
from remis.ruling import (
    DRAW,
    FIFTY,
    THREEFOLD,
    Claim,
    Ruling,
    color_name,
    positions_text,
    win_for,
)
from remis.unwinnable import verdict_from_core

if TYPE_CHECKING:
    from remis.unwinnable import Verdict

#: an end as the core gives it: (ply, kind, article, plies, white_to_move,
#: count, material, proof)
EndFacts = tuple[int, str, str, list[int], bool, int, "str | None", Any]
#: a claim as the core gives it: (ply, white, article, move, plies, moves, count,
#: needed, board): for 9.3, the half-moves it needed and the FEN placement
ClaimFacts = tuple[int, bool, str, "str | None", list[int], list[str], int, int, str]
#: a verdict as the core gives it: the engine's answer (see
#: :func:`remis.unwinnable.verdict_from_core`), the FEN of its position (None
#: for a mate found: only a "cannot" is worded from the board) and
#: whether that is a Chess960 one
VerdictFacts = tuple[Any, str | None, bool]


def title(white: bool) -> str:
    """``"White"`` or ``"Black"``.

    >>> title(False)
    'Black'
    """
    return "White" if white else "Black"


def plies_text(plies: tuple[int, ...] | list[int]) -> str:
    """Plies as the messages list them.

    >>> plies_text((0, 4, 8))
    '0, 4, 8'
    """
    return ", ".join(str(p) for p in plies)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def verdict(white: bool, facts: VerdictFacts) -> Verdict:
    """The engine's verdict on "can ``white`` (or Black) still checkmate?"
    from the core's facts, with its reason in words.

    >>> answer = (False, "material", 0, [], 0, "material:bare_king", [], [], None)
    >>> v = verdict(False, (answer, "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", False))
    >>> v.value, v.method, v.reason
    (False, 'material', 'insufficient material: Black has a bare king (K+Q v K)')
    """
    answer, fen, chess960 = facts
    return verdict_from_core(lambda: chess.Board(fen, chess960=chess960),
                             chess.WHITE if white else chess.BLACK, answer)


def side_reasons(white: Verdict, black: Verdict) -> tuple[str, dict[str, object]]:
    """The reason and the evidence of a dead position from the two proofs
    that neither side can mate (White's, then Black's): the one wording of
    5.2.2 that the batch, the live arbiter and ``remis position`` give.

    >>> answer = (False, "material", 0, [], 0, "material:insufficient", [], [], None)
    >>> fen = "8/8/8/4k3/8/8/8/K2n4 w - - 0 1"
    >>> reason, evidence = side_reasons(verdict(True, (answer, fen, False)),
    ...                                 verdict(False, (answer, fen, False)))
    >>> reason[:33], evidence["can_checkmate"]["black"]["value"]
    ('White: insufficient material: Whi', False)
    """
    reason = REASONS["param.side_reasons"].format(white=white.reason, black=black.reason)
    return reason, {"can_checkmate": {"white": white.to_json(), "black": black.to_json()}}


def dead_proof(proof: tuple[VerdictFacts, VerdictFacts]) -> tuple[str, dict[str, object]]:
    """:func:`side_reasons` from the core's proof of a dead position (White's
    verdict facts, then Black's)."""
    return side_reasons(verdict(True, proof[0]), verdict(False, proof[1]))


#: where positions stood, as players say it (:func:`remis.ruling.positions_text`)
Where = Callable[[tuple[int, ...] | list[int]], str]


def where(start: tuple[int, bool] | None) -> Where:
    """Where the positions of plies stood in a game whose start position has
    the move number and side to move ``start`` (the core's facts give it).

    >>> where((40, False))((0, 1, 2))
    'at the start, after 40…, after 41.'
    """
    boards: list[chess.Board] = []  # built on the first use: most games say nothing

    def at(plies: tuple[int, ...] | list[int]) -> str:
        if not boards:
            boards.append(chess.Board(None))
            if start is not None:
                boards[0].fullmove_number, boards[0].turn = start
        return positions_text(plies, boards[0], 0)

    return at


def ruling(e: EndFacts, at: Where | None = None) -> Ruling:
    """The :class:`~remis.ruling.Ruling` of an automatic end from the core
    (``at`` says where its positions stood).

    >>> ruling((4, "checkmate", "5.1.1", [4], True, 0, None, None)).explanation
    'Black checkmated White: the game ends at once (Article 5.1.1).'
    >>> ruling((9, "seventyfive_moves", "9.6.2", [0, 9], True, 150, None, None)).plies
    (0, 9)
    """
    ply, kind, article, plies, white, count, material, proof = e
    if kind == "checkmate":
        return Ruling(ply, win_for(not white), kind, article, (ply,), kind,
                      {"winner": title(not white), "loser": title(white), "article": article})
    if kind == "stalemate":
        return Ruling(ply, DRAW, kind, article, (ply,), kind,
                      {"player": title(white), "article": article})
    if kind == "insufficient_material":
        return Ruling(ply, DRAW, kind, article, (ply,), kind,
                      {"reason": material, "article": article, "material": material})
    if kind == "dead_position":
        reason, evidence = dead_proof(proof)
        return Ruling(ply, DRAW, kind, article, (ply,), kind,
                      {"reason": reason, "article": article}, evidence)
    if kind == "fivefold_repetition":
        at = at or where(None)
        return Ruling(ply, DRAW, kind, article, tuple(plies), kind,
                      {"plies": plies_text(plies), "article": article, "positions": at(plies)})
    return Ruling(ply, DRAW, kind, article, tuple(plies), kind,
                  {"count": count, "article": article})


def threefold_claim(ply: int, white: bool, article: str, san: str | None,
                    plies: tuple[int, ...], at: Where | None = None) -> Claim:
    """A correct threefold claim (9.2.2, or 9.2.1 with the intended move ``san``).

    >>> c = threefold_claim(8, True, "9.2.2", None, (0, 4, 8))
    >>> c.message, c.params["positions"]
    ('claim_threefold_on_board', 'at the start, after 2…, after 4…')
    """
    at = at or where(None)
    if san is None:
        params = {"player": title(white), "count": len(plies), "plies": plies_text(plies),
                  "positions": at(plies), "article": article}
        message = "claim_threefold_on_board"
    else:
        params = {"player": title(white), "move": san, "nth": _ordinal(len(plies)),
                  "plies": plies_text(plies), "positions": at(plies), "article": article}
        message = "claim_threefold_with_move"
    return Claim(ply, color_name(white), THREEFOLD, article, san, plies, True, message, params)


def fifty_claim(ply: int, white: bool, san: str | None, plies: tuple[int, ...], count: int,
                moves: tuple[str, ...] = (), rule: tuple[int, str | None] = (50, None)
                ) -> Claim:
    """A correct fifty-move claim (9.3.2 on the board, 9.3.1 with ``san``);
    under the Laws of a date, ``rule`` is the count that applied with the
    words naming it (:func:`remis.laws.fifty_rule`), and the explanation
    names them.

    >>> fifty_claim(120, False, None, (20, 120), 100).article
    '9.3.2'
    >>> fifty_claim(150, True, None, (0, 150), 150, rule=(75, "FIDE's 1988 rule")).message
    'claim_fifty_on_board_as_played'
    """
    params: dict[str, Any] = {"player": title(white)}
    if san is None:
        article, message = "9.3.2", "claim_fifty_on_board"
        params["count"] = count
    else:
        article, message = "9.3.1", "claim_fifty_with_move"
        params["move"] = san
    params["article"] = article
    needed, words = rule
    if words is not None:
        message += "_as_played"
        params.update(rule=words, moves=needed)
    return Claim(ply, color_name(white), FIFTY, article, san, plies, True, message, params, moves)


def claim(c: ClaimFacts, laws: Laws = CURRENT,
          rule: tuple[int, str | None] | None = None, at: Where | None = None) -> Claim:
    """The :class:`~remis.ruling.Claim` of a correct claim from the core,
    judged by ``laws`` (under the Laws of a date, a fifty-move claim names
    the count that applied: ``rule``, or that of the claim's placement;
    ``at`` says where positions stood).

    >>> claim((8, True, "9.2.2", None, [0, 4, 8], [], 0, 0, "")).explanation[:19]
    'White may claim a d'
    """
    ply, white, article, move, plies, moves, count, _, board = c
    if article in ("9.2.1", "9.2.2"):
        return threefold_claim(ply, white, article, move, tuple(plies), at)
    return fifty_claim(ply, white, move, tuple(plies), count, tuple(moves),
                       fifty_rule(board, laws) if rule is None else rule)


def flag_fall_json(white: bool, end: Ruling | None, v: Verdict | None) -> dict[str, Any]:
    """The ``time_forfeit`` object of ``remis game`` (Article 6.9): ``white``
    (or Black) ran out of time after ``end`` (the automatic end, if the game
    had one: then the flag is moot) or in a position where ``v`` says whether
    the opponent can still checkmate.

    >>> answer = (False, "material", 0, [], 0, "material:insufficient", [], [], None)
    >>> v = verdict(False, (answer, "8/8/8/4k3/8/8/8/K2n4 b - - 0 1", False))
    >>> out = flag_fall_json(True, None, v)
    >>> out["result"], out["can_checkmate"]["value"], out["message"]
    ('1/2-1/2', False, 'flag_fall_draw')
    """
    params: dict[str, Any] = {"player": title(white), "opponent": title(not white),
                              "article": "6.9"}
    if end is not None or v is None:
        if end is not None:
            params.update(termination=end.termination, end_article=end.article)
        return {"player": color_name(white), "result": end.result if end else None,
                "article": "6.9", "applies": False, "can_checkmate": None,
                "message": "flag_fall_after_end", "params": params,
                "explanation": render("flag_fall_after_end", params)}
    params["reason"] = v.reason
    if v.value is False:
        result, key = DRAW, "flag_fall_draw"
    else:
        result = win_for(not white)
        key = "flag_fall_win" if v.value else "flag_fall_undecided"
    return {"player": color_name(white), "result": result, "article": "6.9", "applies": True,
            "can_checkmate": v.to_json(), "message": key, "params": params,
            "explanation": render(key, params)}
