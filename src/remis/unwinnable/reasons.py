"""The words of a verdict: the core (``remis._core``) gives its reasons as
codes, numbers and moves; this module turns them into the sentences of
:attr:`remis.unwinnable.Verdict.reason` and the verdict's ``details``.

Every sentence is a template of :mod:`remis.reasons` filled in
(``REASONS[id].format(...)``), so the catalogues translate each of them;
a code the core gives that this module does not know is a bug, and raises
:class:`ValueError`."""

from __future__ import annotations

from collections.abc import Callable

import chess

from remis.material import describe_material
from remis.reasons import REASONS

#: A static proof as the core gives it: kind, dark, frozen pawns, boxed
#: squares of Black's and White's king.
CoreProof = tuple[str, bool, int, int, int]

#: The templates of the material codes (``material:*``, ``forced:material:*``).
_MATERIAL = {"bare_king": "param.material_bare", "insufficient": "param.material_never",
             "no_promotion": "param.material_promotion"}
#: The templates naming what stopped an undecided search (``undecided:*``).
_LIMITS = {"quick": "param.limit_quick", "nodes": "param.limit_nodes",
           "time": "param.limit_time", "interrupted": "param.limit_interrupt"}
#: The templates of the static proofs, by kind and by the would-be winner
#: (then, for one shade, by the shade: dark first).
_STATIC: dict[tuple[str, bool], str | tuple[str, str]] = {
    ("no_check", chess.WHITE): "param.blocked_white",
    ("no_check", chess.BLACK): "param.blocked_black",
    ("one_shade", chess.WHITE): ("param.shade_white_dark", "param.shade_white_light"),
    ("one_shade", chess.BLACK): ("param.shade_black_dark", "param.shade_black_light"),
    ("flight", chess.WHITE): "param.flight_white",
    ("flight", chess.BLACK): "param.flight_black"}
#: The templates of a forced sequence's end (``forced:*``): n plies, 1 ply.
_FORCED = {"stalemate": ("param.forced_stalemate", "param.forced_stalemate_ply"),
           "mated": ("param.forced_mated", "param.forced_mated_ply"),
           # a position comes back after four plies at the least: each side moves away and back
           "cycle": ("param.forced_cycle", "param.forced_cycle")}
#: The templates of the counts of :func:`_after_every_move`, in the core's order.
_COUNTS = ("param.to_stalemate", "param.to_mated", "param.to_material", "param.to_cycle",
           "param.to_blocked")


def _name(color: chess.Color) -> str:
    return "White" if color else "Black"


def _template(table: dict[str, str], code: str, sub: str) -> str:
    """The template of sub-code ``sub`` of ``code`` in ``table``."""
    try:
        return REASONS[table[sub]]
    except KeyError:
        raise ValueError(f"remis._core gave an unknown reason code {code!r}") from None


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
        return REASONS["param.already_mated"].format(player=_name(color))
    if len(line) == 1:
        return REASONS["param.helpmate_ply"].format(player=_name(color))
    return REASONS["param.helpmate_plies"].format(player=_name(color), n=len(line))


def undecided_text(code: str, nodes: int) -> str:
    """The reason of an undecided verdict: what stopped the search
    (``undecided:quick``, ``:nodes``, ``:time``, ``:interrupted``) after
    ``nodes`` nodes.

    >>> undecided_text("undecided:nodes", 3001), undecided_text("undecided:quick", 1)
    ('undecided: node limit reached (3001 nodes)', 'undecided: quick mode reached (1 node)')
    """
    limit = _template(_LIMITS, code, code.partition(":")[2])
    if nodes == 1:
        return REASONS["param.undecided_limit_one"].format(limit=limit)
    return REASONS["param.undecided_limit"].format(limit=limit, n=nodes)


def material_text(code: str, sub: str, board: chess.Board | str, color: chess.Color) -> str:
    """The words of material reason ``sub`` (``bare_king``, ``insufficient``,
    ``no_promotion``) of ``code`` on ``board`` (or its material, described).

    >>> material_text("material:bare_king", "bare_king",
    ...               chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK)
    'insufficient material: Black has a bare king (K+Q v K)'
    """
    material = board if isinstance(board, str) else describe_material(board)
    return _template(_MATERIAL, code, sub).format(player=_name(color), material=material)


def counted_material(numbers: list[int]) -> str:
    """The material the core counted for a material reason (queens, rooks,
    bishops, knights and pawns of White, then of Black), described as
    :func:`remis.material.describe_material` describes a board.

    >>> counted_material([1, 0, 0, 0, 0, 0, 0, 0, 0, 2])
    'K+Q v K+P+P'
    """
    sides = []
    for side in (numbers[:5], numbers[5:]):
        parts = ["K"]
        for letter, n in zip("QRBNP", side, strict=True):
            parts.extend([letter] * n)
        sides.append("+".join(parts))
    return " v ".join(sides)


def static_text(proof: CoreProof, color: chess.Color) -> str:
    """The words of a static proof: the argument, the pawns that never move
    and a boxed king's squares (each a clause of its own, after a
    semicolon, as the catalogues translate a list).

    >>> static_text(("no_check", False, chess.BB_D4 | chess.BB_D5, 0, 0), chess.WHITE)
    'blocked position: no White piece can ever attack a square the black king can reach \
(the pawns on d4, d5 can never move)'
    >>> static_text(("flight", False, 0, 0, chess.BB_A1), chess.BLACK).split("; ")[1]
    'the white king is boxed in on a1: the other king can never come next to it without ending \
the game'
    """
    kind, dark, frozen_pawns, boxed_black, boxed_white = proof
    entry = _STATIC.get((kind, color))
    if entry is None:
        raise ValueError(f"remis._core gave an unknown static proof {kind!r}")
    key = entry if isinstance(entry, str) else entry[0] if dark else entry[1]
    pawns = (REASONS["param.frozen_pawns"].format(squares=_squares(frozen_pawns))
             if frozen_pawns else "")
    clauses = [REASONS[key].format(pawns=pawns)]
    for boxed, template in ((boxed_white, "param.boxed_white"),
                            (boxed_black, "param.boxed_black")):
        if boxed:
            clauses.append(REASONS[template].format(squares=_squares(boxed)))
    return "; ".join(clauses)


def _squares(bb: int) -> str:
    return ", ".join(chess.square_name(s) for s in chess.scan_forward(bb))


def _after_forced(forced: list[str]) -> str:
    """The words naming the forced moves played first (the optional
    ``{after}`` of a template), or nothing.

    >>> _after_forced(["e1d1", "a2a1q"]), _after_forced([])
    (' after the forced moves e1d1 a2a1q', '')
    """
    return REASONS["param.after_forced"].format(moves=" ".join(forced)) if forced else ""


def _board(board: chess.Board | Callable[[], chess.Board]) -> chess.Board:
    return board if isinstance(board, chess.Board) else board()


def _material(board: chess.Board | Callable[[], chess.Board], numbers: list[int],
              forced: list[str]) -> str:
    """The material a material reason describes: as the core counted it
    (``numbers``), or, in an answer without the count, on ``board`` after the
    ``forced`` moves."""
    if len(numbers) == 10:
        return counted_material(numbers)
    b = _board(board).copy(stack=False)
    for uci in forced:
        b.push_uci(uci)
    return describe_material(b)


def _after_every_move(color: chess.Color, numbers: list[int], moves: list[str],
                      proof: CoreProof | None) -> str:
    """The static proof after every legal move (see the core's
    ``Reason::AfterEveryMove``): how the moves end, and an example.

    >>> _after_every_move(chess.BLACK, [2, 0, 1, 0, 0], [], None)
    'every legal move ends the game or leads, through forced replies, to a position where \
Black cannot mate: 2 to stalemate, 1 to too little material'
    """
    stalemate, mated, material, cycle, blocked = numbers
    player = _name(color)
    reason = static_text(proof, color) if proof is not None else None
    if reason is not None and blocked and not (stalemate or mated or material or cycle):
        return REASONS["param.every_move_blocked"].format(moves=" ".join(moves), reason=reason)
    counts = ", ".join(REASONS[key].format(n=n, player=player)
                       for key, n in zip(_COUNTS, numbers, strict=True) if n)
    example = ("" if reason is None else
               REASONS["param.every_move_example"].format(moves=" ".join(moves), reason=reason))
    return REASONS["param.every_move"].format(player=player, counts=counts, example=example)


def _lines(board: chess.Board, color: chess.Color, head: list[str], numbers: list[int],
           details: dict[str, object]) -> str:
    """Every line of at most ``plies`` plies from the position after the
    forced moves ``head`` ends (see the core's ``Reason::Lines``): one ply
    is every legal move of the side to move there."""
    plies, ended, short = numbers
    details.update(plies=plies, ends_game_over=ended, ends_too_little_material=short)
    name = _name(color)
    how = (REASONS["param.lines_either"].format(player=name) if ended and short
           else REASONS["param.lines_end"] if ended
           else REASONS["param.lines_material"].format(player=name))
    total = ended + short
    ends = REASONS["param.ends_one"] if total == 1 else REASONS["param.ends_n"].format(n=total)
    after = _after_forced(head)
    if plies == 1:
        mover = board.turn if len(head) % 2 == 0 else not board.turn
        return REASONS["param.lines_moves"].format(player=_name(mover), after=after, how=how,
                                                   ends=ends)
    return REASONS["param.lines_plies"].format(n=plies, after=after, how=how, ends=ends)


def reason_text(board: chess.Board | Callable[[], chess.Board], color: chess.Color, nodes: int,
                head: list[str], code: str, numbers: list[int], example: list[str],
                proof: CoreProof | None) -> tuple[str, dict[str, object]]:
    """The words and details of a "cannot" or undecided verdict: ``head``
    are the forced moves played before the deciding stage; ``code``,
    ``numbers``, ``example`` (moves) and ``proof`` the core's reason (a
    material reason's numbers: the material it counted, which its words
    describe).  ``board`` may be a function that builds it: most reasons
    need none.

    >>> b = chess.Board("8/8/8/8/8/8/8/K6k w - - 0 1")
    >>> reason_text(b, chess.WHITE, 0, ["a1b1"], "forced:stalemate", [], [], None)[0]
    'forced sequence: every legal continuation ends in stalemate after 1 forced ply (a1b1)'
    >>> reason_text(b, chess.WHITE, 0, [], "checkmate:soon", [], [], None)
    Traceback (most recent call last):
    ...
    ValueError: remis._core gave an unknown reason code 'checkmate:soon'
    """
    details: dict[str, object] = {"forced": head} if head else {}
    kind, _, sub = code.partition(":")
    if kind == "undecided":
        return undecided_text(code, nodes), details
    if kind == "material":
        return material_text(code, sub, _material(board, numbers, []), color), details
    if kind == "game_over" and sub == "stalemate":
        return REASONS["param.position_stalemate"], details
    if kind == "game_over" and sub == "mated":
        return REASONS["param.position_mated"].format(player=_name(color)), details
    moves = " ".join(head)
    if kind == "forced" and sub.startswith("material:"):
        why = material_text(code, sub.partition(":")[2], _material(board, numbers, head), color)
        return REASONS["param.forced_material"].format(moves=moves, reason=why), details
    if kind == "forced" and sub in _FORCED:
        plies, ply = _FORCED[sub]
        template = REASONS[ply if len(head) == 1 else plies]
        return template.format(n=len(head), moves=moves, player=_name(color)), details
    if kind == "static" and proof is not None:
        return REASONS["param.blocked_static"].format(
            after=_after_forced(head), reason=static_text(proof, color)), details
    if kind == "after_every_move":
        text = _after_every_move(color, numbers, example, proof)
        if head:
            text = REASONS["param.forced_then"].format(moves=moves, reason=text)
        return text, details
    if kind == "lines":
        return _lines(_board(board), color, head, numbers, details), details
    if kind == "exhausted":
        return REASONS["param.exhausted_search"].format(
            player=_name(color), after=_after_forced(head), n=numbers[0]), details
    raise ValueError(f"remis._core gave an unknown reason code {code!r}")
