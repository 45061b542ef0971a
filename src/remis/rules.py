"""The rules: pure functions over a :class:`~remis.history.History` that return
:class:`~remis.ruling.Ruling` and :class:`~remis.ruling.Claim` values.

* automatic ends: checkmate (5.1.1), stalemate (5.2.1), dead position (5.2.2,
  with insufficient material as its special case), fivefold repetition
  (9.6.1) and the 75-move rule (9.6.2, a mate on the last move prevails);
* claims by the player having the move: threefold repetition (9.2.2 on the
  board, 9.2.1 with an intended move) and fifty moves (9.3.2, 9.3.1).

The functions that depend on the edition of the Laws take ``laws``
(:class:`~remis.laws.Laws`, default the current Laws): the 9.6 ends came in
1 July 2014, and from 1929 to 1992 some endings had a longer 9.3 count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import chess

from remis.history import History
from remis.laws import CURRENT, FIFTY_MOVES, Laws, day_text, fifty_move_exception
from remis.material import describe_material, insufficient_material
from remis.messages import VERDICTS
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


class DeadVerdict(NamedTuple):
    """A proven dead position: ``termination`` is ``"insufficient_material"``
    or ``"dead_position"``; ``reason`` says why; ``evidence`` is free-form.

    >>> v = material_dead_test(chess.Board("8/8/4k3/8/8/2B5/8/4K3 w - - 0 1"))
    >>> v.termination, v.reason
    ('insufficient_material', 'K+B v K')
    """

    termination: str
    reason: str
    evidence: dict[str, object]


#: A dead-position test: returns a :class:`DeadVerdict` only when it has
#: *proved* that neither side can mate; ``None`` means "not dead" or "not
#: proven" (the game goes on: never declare an unproven draw).
DeadTest = Callable[[chess.Board], DeadVerdict | None]


def material_dead_test(board: chess.Board) -> DeadVerdict | None:
    """The default dead-position test: insufficient material only.

    >>> material_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1")).termination
    'insufficient_material'
    >>> material_dead_test(chess.Board()) is None
    True
    """
    if board.pawns or board.rooks or board.queens:  # the usual case, decided at once
        return None
    if insufficient_material(board):
        return DeadVerdict("insufficient_material", describe_material(board), {})
    return None


def _title(color: chess.Color) -> str:
    return "White" if color else "Black"


def _plies_text(plies: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(p) for p in plies)


def _positions(history: History, plies: tuple[int, ...]) -> str:
    return positions_text(plies, history.board, history.ply)


def _upheld(claim: Claim) -> Claim:
    """A correct claim that was made: its verdict's wording, not the hint's."""
    return replace(claim, message=VERDICTS[claim.message])


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def checkmate_or_stalemate(history: History) -> Ruling | None:
    """Ruling for a checkmate (5.1.1) or stalemate (5.2.1) on the board, else None.

    >>> h = History()
    >>> for san in ["f3", "e5", "g4", "Qh4#"]:
    ...     _ = h.push_san(san)
    >>> checkmate_or_stalemate(h).result
    '0-1'
    """
    board = history.board
    if any(board.generate_legal_moves()):
        return None
    ply = history.ply
    mover = board.turn
    if board.is_check():
        return Ruling(ply, win_for(not mover), "checkmate", "5.1.1", (ply,), "checkmate",
                      {"winner": _title(not mover), "loser": _title(mover), "article": "5.1.1"})
    return Ruling(ply, DRAW, "stalemate", "5.2.1", (ply,), "stalemate",
                  {"player": _title(mover), "article": "5.2.1"})


def dead_position(history: History, dead_test: DeadTest = material_dead_test) -> Ruling | None:
    """Ruling for a dead position (5.2.2) proven by ``dead_test``, else None.

    >>> h = History(chess.Board("8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1"))
    >>> _ = h.push_san("Nxd1")
    >>> dead_position(h).termination
    'insufficient_material'
    >>> dead_position(h).params["reason"]
    'K v K+N'
    """
    verdict = dead_test(history.board)
    if verdict is None:
        return None
    ply = history.ply
    key = "insufficient_material" if verdict.termination == "insufficient_material" else (
        "dead_position")
    params = {"reason": verdict.reason, "article": "5.2.2"}
    if key == "insufficient_material":  # its explanation names the material
        params["material"] = verdict.reason
    return Ruling(ply, DRAW, verdict.termination, "5.2.2", (ply,), key, params,
                  dict(verdict.evidence))


def fivefold(history: History) -> Ruling | None:
    """Ruling for a fivefold repetition (9.6.1), else None.

    >>> h = History()
    >>> for _ in range(4):
    ...     for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
    ...         _ = h.push_san(san)
    >>> fivefold(h).plies
    (0, 4, 8, 12, 16)
    """
    occ = history.occurrences()
    if len(occ) < 5:
        return None
    return Ruling(history.ply, DRAW, "fivefold_repetition", "9.6.1", occ,
                  "fivefold_repetition", {"plies": _plies_text(occ), "article": "9.6.1",
                                          "positions": _positions(history, occ)})


def seventyfive_moves(history: History) -> Ruling | None:
    """Ruling for the 75-move rule (9.6.2), else None.  Call it only after
    :func:`checkmate_or_stalemate`, which takes precedence (F10).

    >>> h = History(chess.Board("8/8/4k3/8/8/3K4/8/6R1 w - - 149 100"))
    >>> _ = h.push_san("Rg2")
    >>> seventyfive_moves(h).article
    '9.6.2'
    """
    clock = history.board.halfmove_clock
    if clock < 150:
        return None
    ply = history.ply
    return Ruling(ply, DRAW, "seventyfive_moves", "9.6.2", (max(ply - clock, 0), ply),
                  "seventyfive_moves", {"count": clock, "article": "9.6.2"})


def automatic_end(history: History, dead_test: DeadTest = material_dead_test) -> Ruling | None:
    """The automatic end of the game in the current position, if any, in the
    order of precedence: 5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2.

    >>> h = History(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 149 100"))
    >>> _ = h.push_san("Rh8#")
    >>> automatic_end(h).termination    # mate on the 150th ply prevails (F10)
    'checkmate'
    """
    return (
        checkmate_or_stalemate(history)
        or dead_position(history, dead_test)
        or fivefold(history)
        or seventyfive_moves(history)
    )


def position_end(history: History, dead_test: DeadTest = material_dead_test) -> Ruling | None:
    """The automatic ends that the position alone decides: 5.1.1, 5.2.1 and
    5.2.2 (the Laws before 1 July 2014 had no automatic 9.6 ends).

    >>> h = History()
    >>> for _ in range(4):
    ...     for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
    ...         _ = h.push_san(san)
    >>> position_end(h) is None, automatic_end(h).article
    (True, '9.6.1')
    """
    return checkmate_or_stalemate(history) or dead_position(history, dead_test)


#: an automatic-end rule: :func:`automatic_end` or :func:`position_end`
EndRule = Callable[[History, DeadTest], Ruling | None]


def end_rule(laws: Laws = CURRENT) -> EndRule:
    """The automatic ends under ``laws``: :func:`automatic_end`, or
    :func:`position_end` under the Laws before 1 July 2014.

    >>> from remis.laws import laws_for
    >>> end_rule().__name__, end_rule(laws_for("1985.05.01", "as-played")).__name__
    ('automatic_end', 'position_end')
    """
    return automatic_end if laws.automatic_repetition else position_end


# ------------------------------------------------------------------ claims
def threefold_claims(history: History) -> list[Claim]:
    """Every correct threefold claim (9.2.2, and 9.2.1 with each intended move
    that works) of the player having the move.

    >>> h = History()
    >>> for san in "e4 e5 Nf3 Nc6 Bc4 Be7 Ke2 Nf6 Ke1 Ng8 Ke2 Nf6 Ke1 Ng8".split():
    ...     _ = h.push_san(san)
    >>> [(c.article, c.move) for c in threefold_claims(h)]    # R02c
    [('9.2.1', 'Ke2')]
    """
    out: list[Claim] = []
    board = history.board
    ply = history.ply
    player = board.turn
    occ = history.occurrences()
    if len(occ) >= 3:
        out.append(_threefold_claim(history, player, "9.2.2", None, occ))
    found = [(board.san(move), after) for move, after in history.repeating_moves()]
    for san, after in sorted(found):
        out.append(_threefold_claim(history, player, "9.2.1", san, (*after, ply + 1)))
    return out


def _threefold_claim(history: History, player: chess.Color, article: str, san: str | None,
                     plies: tuple[int, ...]) -> Claim:
    ply = history.ply
    where = _positions(history, plies)
    if san is None:
        params = {"player": _title(player), "count": len(plies), "plies": _plies_text(plies),
                  "positions": where, "article": article}
        message = "claim_threefold_on_board"
    else:
        params = {"player": _title(player), "move": san, "nth": _ordinal(len(plies)),
                  "plies": _plies_text(plies), "positions": where, "article": article}
        message = "claim_threefold_with_move"
    return Claim(ply, color_name(player), THREEFOLD, article, san, plies, True, message, params)


def _quiet_moves(board: chess.Board) -> list[chess.Move]:
    return [m for m in board.generate_legal_moves() if not board.is_zeroing(m)]


def fifty_move_rule(board: chess.Board, laws: Laws = CURRENT) -> tuple[int, str | None]:
    """The moves by each player a 9.3 claim needs on ``board`` under
    ``laws`` (:func:`remis.laws.claim_moves`), and, under the Laws of a date,
    the words naming the rule that applied (None under the current Laws).

    >>> from remis.laws import laws_for
    >>> b = chess.Board("8/8/8/4k3/8/8/7r/K1BR4 w - - 0 1")
    >>> fifty_move_rule(b)
    (50, None)
    >>> fifty_move_rule(b, laws_for("1990.05.01", "as-played"))
    (75, "FIDE's 1988 rule (K+R+B v K+R: 75 moves)")
    >>> fifty_move_rule(b, laws_for("1995.05.01", "as-played"))
    (50, 'the Laws in force on 1995.05.01 (50 moves in every position)')
    """
    if laws.day is None:
        return FIFTY_MOVES, None
    row = fifty_move_exception(laws.day, board.board_fen())
    if row is None:
        return FIFTY_MOVES, (f"the Laws in force on {day_text(laws.day)} "
                             "(50 moves in every position)")
    return row.moves, f"FIDE's {row.laid_down} rule ({row.material}: {row.moves} moves)"


def _fifty_claim(ply: int, player: chess.Color, san: str | None, clock: int,
                 rule: tuple[int, str | None], sans: tuple[str, ...] = ()) -> Claim:
    """A correct 9.3.2 claim (``san`` None) or 9.3.1 claim with ``san``;
    under the Laws of a date its explanation names the ``rule`` that applied."""
    moves, words = rule
    params: dict[str, object] = {"player": _title(player)}
    if san is None:
        article, plies, message = "9.3.2", (max(ply - clock, 0), ply), "claim_fifty_on_board"
        params["count"] = clock
    else:
        article, plies, message = "9.3.1", (max(ply - clock, 0), ply + 1), "claim_fifty_with_move"
        params["move"] = san
    params["article"] = article
    if words is not None:
        message += "_as_played"
        params.update(rule=words, moves=moves)
    return Claim(ply, color_name(player), FIFTY, article, san, plies, True, message, params, sans)


def fifty_claims(history: History, laws: Laws = CURRENT) -> list[Claim]:
    """The correct fifty-move claim of the player having the move: 9.3.2 when
    the last 100 plies had no pawn move or capture, 9.3.1 (with the possible
    intended moves) when the count is 99 (under ``laws`` of a date, twice
    the moves of :func:`fifty_move_rule`).

    >>> h = History(chess.Board("8/8/4k3/8/8/3K4/8/6R1 w - - 99 80"))
    >>> c = fifty_claims(h)[0]
    >>> c.article, c.move in c.moves
    ('9.3.1', True)
    """
    board = history.board
    clock = board.halfmove_clock
    if clock < 2 * FIFTY_MOVES - 1:
        return []
    rule = fifty_move_rule(board, laws)
    needed = 2 * rule[0]
    if clock >= needed:
        return [_fifty_claim(history.ply, board.turn, None, clock, rule)]
    if clock == needed - 1:
        sans = sorted(board.san(m) for m in _quiet_moves(board))
        if sans:
            return [_fifty_claim(history.ply, board.turn, sans[0], clock, rule, tuple(sans))]
    return []


def claimable(history: History, laws: Laws = CURRENT) -> list[Claim]:
    """Every correct draw claim the player having the move could make now
    (9.2 and 9.3, under ``laws``).  It does not check whether the game is
    already over.

    >>> h = History()
    >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
    ...     _ = h.push_san(san)
    >>> [(c.article, c.move) for c in claimable(h)]    # R03, and Nf3 would repeat too
    [('9.2.2', None), ('9.2.1', 'Nf3')]
    """
    return threefold_claims(history) + fifty_claims(history, laws)


def _parse_intended(board: chess.Board, move: str | chess.Move) -> chess.Move | None:
    if isinstance(move, chess.Move):
        return move if board.is_legal(move) else None
    try:
        return board.parse_san(move)
    except ValueError:
        pass
    try:
        m = chess.Move.from_uci(move)
    except ValueError:
        return None
    return m if board.is_legal(m) else None


def _penalty_text(seconds: int) -> str:
    return "1 minute" if seconds == 60 else f"{seconds // 60} minutes" if seconds % 60 == 0 \
        else f"{seconds} seconds"


def rule_on_claim(
    history: History,
    *,
    player: chess.Color | None = None,
    kind: str | None = None,
    move: str | chess.Move | None = None,
    penalty_seconds: int = 120,
    dead_test: DeadTest = material_dead_test,
    ended: Ruling | None = None,
    laws: Laws = CURRENT,
) -> Claim:
    """Rule on a draw claim by ``player`` (default: the player having the move),
    of ``kind`` (``"threefold_repetition"``, ``"fifty_moves"`` or None for
    either), with an optional intended move (SAN or UCI).  An incorrect claim
    explains why; it stands as a draw offer and costs ``penalty_seconds``
    (120 in standard play, 60 in rapid and blitz).  ``ended`` is an automatic
    end the game reached before this position (a record may go on after it):
    no claim can then be made.  ``laws`` (default the current Laws) decides
    the automatic ends and the 9.3 count (:func:`fifty_move_rule`).

    >>> h = History()
    >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
    ...     _ = h.push_san(san)
    >>> rule_on_claim(h, move="Ng8").valid           # R04
    True
    >>> rule_on_claim(h).valid                       # R06
    False
    """
    board = history.board
    ply = history.ply
    mover = board.turn
    claimant = mover if player is None else player
    kind_name = kind or THREEFOLD
    san: str | None = None
    end = ended or end_rule(laws)(history, dead_test)
    if end is not None:
        return Claim(ply, color_name(claimant), kind_name, end.article, None, (), False,
                     "claim_game_over", {"termination": end.termination, "article": end.article})
    with_move = move is not None
    article_3 = "9.2.1" if with_move else "9.2.2"
    article_50 = "9.3.1" if with_move else "9.3.2"
    if claimant != mover:
        art = article_3 if kind_name == THREEFOLD else article_50
        return Claim(ply, color_name(claimant), kind_name, art, None, (), False,
                     "claim_wrong_player", {"player": _title(claimant), "article": art})
    parsed: chess.Move | None = None
    if move is not None:
        parsed = _parse_intended(board, move)
        text = move.uci() if isinstance(move, chess.Move) else move
        if parsed is None:
            art = article_3 if kind_name == THREEFOLD else article_50
            return Claim(ply, color_name(claimant), kind_name, art, text, (), False,
                         "claim_illegal_move", {"move": text, "article": art})
        san = board.san(parsed)
    kinds = [kind] if kind else [THREEFOLD, FIFTY]
    who = color_name(claimant)
    for k in kinds:
        if k == THREEFOLD:
            if parsed is not None:
                after = history.occurrences_after(parsed)
                if len(after) >= 2:
                    return _upheld(_threefold_claim(history, claimant, "9.2.1", san,
                                                    (*after, ply + 1)))
            occ = history.occurrences()
            if len(occ) >= 3:
                return _upheld(_threefold_claim(history, claimant, "9.2.2", None, occ))
        elif k == FIFTY:
            clock = board.halfmove_clock
            rule = fifty_move_rule(board, laws)
            if parsed is not None and not board.is_zeroing(parsed) and clock + 1 >= 2 * rule[0]:
                return _upheld(_fifty_claim(ply, claimant, san, clock, rule))
            if clock >= 2 * rule[0]:
                return _upheld(_fifty_claim(ply, claimant, None, clock, rule))
        else:
            raise ValueError(f"unknown claim kind {k!r}")
    # incorrect: explain against the requested (or most plausible) kind
    penalty = _penalty_text(penalty_seconds)
    must_play = f", and {san} must be played" if san else ""
    first = kinds[0]
    if kind is None and board.halfmove_clock >= 90 and history.count() < 2:
        first = FIFTY
    if first == THREEFOLD:
        plies = (*history.occurrences_after(parsed), ply + 1) if parsed is not None else (
            history.occurrences())
        return Claim(ply, who, THREEFOLD, article_3, san, plies, False, "claim_threefold_incorrect",
                     {"count": len(plies), "plies": _plies_text(plies), "article": article_3,
                      "positions": _positions(history, plies), "penalty": penalty,
                      "must_play": must_play})
    clock = board.halfmove_clock
    count = clock + 1 if parsed is not None and not board.is_zeroing(parsed) else (
        0 if parsed is not None else clock)
    note = f" (the intended move {san} is a pawn move or a capture)" if (
        parsed is not None and board.is_zeroing(parsed)) else ""
    params: dict[str, object] = {"count": count, "move_note": note, "article": article_50,
                                 "penalty": penalty, "must_play": must_play}
    moves, words = fifty_move_rule(board, laws)
    message = "claim_fifty_incorrect"
    if words is not None:
        message += "_as_played"
        params.update(rule=words, moves=moves, needed=2 * moves)
    return Claim(ply, who, FIFTY, article_50, san, (max(ply - clock, 0), ply), False, message,
                 params)
