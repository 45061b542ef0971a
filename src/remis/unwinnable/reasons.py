"""The words of a verdict: the core (``remis._core``) gives its reasons as
codes, numbers and moves; this module turns them into the sentences of
:attr:`remis.unwinnable.Verdict.reason` and the verdict's ``details``."""

from __future__ import annotations

import chess

from remis.material import describe_material

#: A static proof as the core gives it: kind, dark, frozen pawns, boxed
#: squares of Black's and White's king.
CoreProof = tuple[str, bool, int, int, int]


def _name(color: chess.Color) -> str:
    return "White" if color else "Black"


def found_text(color: chess.Color, line: tuple[str, ...]) -> str:
    """The reason of a "can mate" verdict: the length of the helpmate found
    (evidence, not always the shortest one: the words do not say "helpmate
    in N" as a composer would).

    >>> found_text(chess.WHITE, ("a1a8",)), found_text(chess.BLACK, ("e2e4", "f7f6", "e4e5"))
    ('White can mate: a helpmate of 1 ply', 'Black can mate: a helpmate of 3 plies')
    >>> found_text(chess.WHITE, ())
    'White has already mated'
    """
    if not line:
        return f"{_name(color)} has already mated"
    plies = "1 ply" if len(line) == 1 else f"{len(line)} plies"
    return f"{_name(color)} can mate: a helpmate of {plies}"


def material_text(code: str, board: chess.Board, color: chess.Color) -> str:
    """The words of a material reason (``bare_king``, ``insufficient``,
    ``no_promotion``) on ``board``.

    >>> material_text("bare_king", chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK)
    'insufficient material: Black has a bare king (K+Q v K)'
    """
    name, material = _name(color), describe_material(board)
    if code == "bare_king":
        return f"insufficient material: {name} has a bare king ({material})"
    if code == "insufficient":
        return f"insufficient material: {name} can never checkmate ({material})"
    return (f"insufficient material: {name} could only mate after an opponent's promotion, "
            f"and the opponent has no pawns ({material})")


def static_text(proof: CoreProof, color: chess.Color) -> str:
    """The words of a static proof: the argument, the pawns that never move
    and a boxed king's squares.

    >>> static_text(("no_check", False, chess.BB_D4 | chess.BB_D5, 0, 0), chess.WHITE)
    'blocked position: no White piece can ever attack a square the black king can reach \
(the pawns on d4, d5 can never move)'
    """
    kind, dark, frozen_pawns, boxed_black, boxed_white = proof
    w, loser = _name(color), _name(not color)
    if kind == "no_check":
        text = (f"blocked position: no {w} piece can ever attack a square the "
                f"{loser.lower()} king can reach")
    elif kind == "one_shade":
        shade = "dark" if dark else "light"
        text = (f"{w} can only ever check with bishops on {shade} squares, and the "
                f"{loser.lower()} king always keeps a flight square of the other colour")
    else:
        text = (f"wherever {w} could give check, the {loser.lower()} king always keeps a "
                f"flight square that no {w} piece can ever guard and {loser} cannot fill")
    if frozen_pawns:
        text += f" (the pawns on {_squares(frozen_pawns)} can never move)"
    for side, boxed in ((chess.WHITE, boxed_white), (chess.BLACK, boxed_black)):
        if boxed:
            text += (f"; the {_name(side).lower()} king is boxed in on {_squares(boxed)}: the "
                     "other king can never come next to it without ending the game")
    return text


def _squares(bb: int) -> str:
    return ", ".join(chess.square_name(s) for s in chess.scan_forward(bb))


def _after_forced(forced: list[str]) -> str:
    """The words naming the forced moves played first (with a leading
    space), or nothing.

    >>> _after_forced(["e1d1", "a2a1q"]), _after_forced([])
    (' after the forced moves e1d1 a2a1q', '')
    """
    return f" after the forced moves {' '.join(forced)}" if forced else ""


def _after_forced_board(board: chess.Board, forced: list[str]) -> chess.Board:
    b = board.copy(stack=False)
    for uci in forced:
        b.push_uci(uci)
    return b


def _after_every_move(color: chess.Color, numbers: list[int], moves: list[str],
                      proof: CoreProof | None) -> str:
    """The static proof after every legal move (see the core's
    ``Reason::AfterEveryMove``): how the moves end, and an example."""
    stalemate, mated, material, cycle, blocked = numbers
    example = f"{' '.join(moves)}: {static_text(proof, color)}" if proof is not None else ""
    if blocked and not (stalemate or mated or material or cycle):
        return f"blocked structure (static) after every legal move, e.g. {example}"
    words = ((stalemate, "to stalemate"), (mated, f"to a checkmate of {_name(color)}"),
             (material, "to too little material"), (cycle, "to a cycle of forced moves"),
             (blocked, "to a blocked structure"))
    parts = ", ".join(f"{n} {what}" for n, what in words if n)
    text = (f"every legal move ends the game or leads, through forced replies, to a position "
            f"where {_name(color)} cannot mate: {parts}")
    return text + (f" (e.g. {example})" if example else "")


def reason_text(board: chess.Board, color: chess.Color, nodes: int, head: list[str],
                code: str, numbers: list[int], example: list[str],
                proof: CoreProof | None) -> tuple[str, dict[str, object]]:
    """The words and details of a "cannot" or undecided verdict: ``head``
    are the forced moves played before the deciding stage; ``code``,
    ``numbers``, ``example`` (moves) and ``proof`` the core's reason."""
    details: dict[str, object] = {"forced": head} if head else {}
    name, loser = _name(color), _name(not color)
    after = _after_forced(head)
    kind, _, sub = code.partition(":")
    if kind == "undecided":
        what = {"quick": "quick mode", "nodes": "node limit", "time": "time limit",
                "interrupted": "interrupt"}.get(sub, sub)
        return f"undecided: {what} reached ({nodes} nodes)", details
    if kind == "material":
        return material_text(sub, board, color), details
    if kind == "game_over":
        what = "stalemate" if sub == "stalemate" else f"checkmate of {name}"
        return f"the position is a {what}: no legal move", details
    if kind == "forced":
        played = f"{len(head)} forced plies ({' '.join(head)})"
        if sub.startswith("material"):
            why = material_text(sub.partition(":")[2], _after_forced_board(board, head), color)
            return f"forced sequence {' '.join(head)} leads to {why}", details
        if sub == "cycle":
            return (f"forced sequence: the forced moves come back to a position after "
                    f"{played}, so they go on for ever"), details
        what = "stalemate" if sub == "stalemate" else f"checkmate of {name}"
        return (f"forced sequence: every legal continuation ends in {what} after {played}",
                details)
    if kind == "static" and proof is not None:
        return f"blocked structure (static){after}: {static_text(proof, color)}", details
    if kind == "after_every_move":
        text = _after_every_move(color, numbers, example, proof)
        return (f"{after.lstrip()}, {text}" if head else text), details
    if kind == "lines":
        plies, ended, short = numbers
        details.update(plies=plies, ends_game_over=ended, ends_too_little_material=short)
        how = " or ".join(what for what, n in (
            ("ends the game", ended), (f"leaves {name} without mating material", short)) if n)
        what = (f"every legal move of {loser}" if plies == 1
                else f"every line of at most {plies} plies")
        total = ended + short
        return (f"exhausted search: {what}{after} {how} ({total} end{'s' if total != 1 else ''})",
                details)
    if kind == "exhausted":
        return (f"exhausted search: no checkmate by {name} is reachable{after} "
                f"({numbers[0]} positions searched)"), details
    return f"{code}{after}", details
