"""The rules: pure functions over a :class:`~remis.history.History` that return
:class:`~remis.ruling.Ruling` and :class:`~remis.ruling.Claim` values.

* automatic ends: checkmate (5.1.1), stalemate (5.2.1), dead position (5.2.2,
  with insufficient material as its special case), fivefold repetition
  (9.6.1) and the 75-move rule (9.6.2, a mate on the last move prevails);
* claims by the player having the move: threefold repetition (9.2.2 on the
  board, 9.2.1 with an intended move) and fifty moves (9.3.2, 9.3.1).

The rules themselves are the core's (``remis._core``), over the history it
keeps for :class:`~remis.history.History`, the same rules ``remis game`` and
the audit apply to whole games; this module asks them and builds the rulings
(:mod:`remis.facts`).  Only the dead-position test is a Python callable here,
so that a caller may choose it.

The functions that depend on the edition of the Laws take ``laws``
(:class:`~remis.laws.Laws`, default the current Laws): the 9.6 ends came in
1 July 2014, and from 1929 to 1992 some endings had a longer 9.3 count.
"""

from __future__ import annotations

from dataclasses import replace

import chess

from remis import facts as F
from remis.ends import (
    EndRule,
    automatic_end,
    checkmate_or_stalemate,
    dead_position,
    end_rule,
    fivefold,
    position_end,
    seventyfive_moves,
)
from remis.history import History
from remis.laws import CURRENT, FIFTY_MOVES, Laws, fifty_rule
from remis.material import DeadTest, DeadVerdict, material_dead_test
from remis.messages import VERDICTS
from remis.ruling import FIFTY, THREEFOLD, Claim, Ruling, color_name

__all__ = [
    "DeadTest",
    "DeadVerdict",
    "EndRule",
    "automatic_end",
    "checkmate_or_stalemate",
    "claimable",
    "dead_position",
    "end_rule",
    "fifty_claims",
    "fifty_move_rule",
    "fivefold",
    "material_dead_test",
    "position_end",
    "rule_on_claim",
    "seventyfive_moves",
    "threefold_claims",
]


def _upheld(claim: Claim) -> Claim:
    """A correct claim that was made: its verdict's wording, not the hint's."""
    return replace(claim, message=VERDICTS[claim.message])


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
    return [F.claim(c, at=history.where) for c in history.core.claims(fifty_moves=False)]


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
    """
    return fifty_rule(board.board_fen(), laws)


def _claims(history: History, laws: Laws, *, threefold: bool = True,
            fifty: bool = True) -> list[Claim]:
    """The core's correct claims in the current position, with the 9.3 count
    of ``laws`` for the units on the board."""
    rule = fifty_move_rule(history.board, laws)
    at = history.where
    return [F.claim(c, laws, rule, at) for c in history.core.claims(
        fifty=2 * rule[0], threefold=threefold, fifty_moves=fifty)]


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
    return _claims(history, laws, threefold=False)


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
    found = history.found()
    if found is None:  # the usual case: no claim, whatever the Laws
        return []
    # the push found the claims with the 50 moves of 9.3; the Laws of a date
    # counted longer in some endings, which only matters near the count
    if found is not False and (laws.day is None
                               or history.core.halfmoves < 2 * FIFTY_MOVES - 1):
        return [F.claim(c, laws, at=history.where) for c in found[1]]
    return _claims(history, laws)


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
    dead_test: DeadTest | None = None,
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
    claimant = board.turn if player is None else player
    kind_name = kind or THREEFOLD
    end = ended or end_rule(laws)(history, dead_test)
    if end is not None:
        return Claim(ply, color_name(claimant), kind_name, end.article, None, (), False,
                     "claim_game_over", {"termination": end.termination,
                                         "article": end.article})
    text = move.uci() if isinstance(move, chess.Move) else move
    core = history.core
    rule = fifty_move_rule(board, laws)
    fifty = 2 * rule[0]
    if text is None or core.exact or claimant != board.turn:
        facts = core.claim(claimant, kind, text, fifty=fifty)
    else:  # a position the core cannot hold: python-chess reads the move
        parsed = _parse_intended(board, move)  # type: ignore[arg-type]
        if parsed is None:
            facts = ("illegal_move", kind_name, "9.2.1" if kind_name == THREEFOLD else "9.3.1",
                     [], 0, None)
        else:
            after, zeroing = history.after(parsed)
            facts = (*core.claim(claimant, kind, None, after, zeroing, fifty)[:5],
                     board.san(parsed))
    reason, found_kind, article, plies, count, san = facts
    who = color_name(claimant)
    if reason == "wrong_player":
        return Claim(ply, who, found_kind, article, None, (), False, "claim_wrong_player",
                     {"player": F.title(claimant), "article": article})
    if reason == "illegal_move":
        return Claim(ply, who, found_kind, article, text, (), False, "claim_illegal_move",
                     {"move": text, "article": article})
    if reason == "correct":
        if found_kind == THREEFOLD:
            return _upheld(F.threefold_claim(ply, claimant, article,
                                             san if article == "9.2.1" else None, tuple(plies),
                                             history.where))
        return _upheld(F.fifty_claim(ply, claimant, san if article == "9.3.1" else None,
                                     tuple(plies), count, rule=rule))
    penalty = _penalty_text(penalty_seconds)
    must_play = f", and {san} must be played" if san else ""
    if found_kind == THREEFOLD:
        return Claim(ply, who, THREEFOLD, article, san, tuple(plies), False,
                     "claim_threefold_incorrect",
                     {"count": count, "plies": F.plies_text(plies), "article": article,
                      "positions": history.where(plies), "penalty": penalty,
                      "must_play": must_play})
    zeroing_note = san is not None and count == 0
    note = f" (the intended move {san} is a pawn move or a capture)" if zeroing_note else ""
    params: dict[str, object] = {"count": count, "move_note": note, "article": article,
                                 "penalty": penalty, "must_play": must_play}
    message = "claim_fifty_incorrect"
    if rule[1] is not None:
        message += "_as_played"
        params.update(rule=rule[1], moves=rule[0], needed=fifty)
    return Claim(ply, who, FIFTY, article, san, tuple(plies), False, message, params)


def _parse_intended(board: chess.Board, move: str | chess.Move) -> chess.Move | None:
    """The intended move in a position the core cannot hold, read by python-chess."""
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
