"""The pseudo-legal moves of a position in the helpmate search's order of
costs, generated class by class.

The search (:class:`~remis.unwinnable.search.HelpmateSearch`) tries the free
moves first, then the moves that cost one ply, then those that cost more,
each class in python-chess's generation order (that of
:meth:`chess.Board.generate_pseudo_legal_moves`).  Classifying every
generated move, as a plain filter would, builds all of them at nodes where
the first free move already leads to a mate; here the free moves of each
piece are found from bitboards (captures, steps toward a target square) and
the others are built only when the search asks for them.  The moves, their
costs and their order are those of the filter (the tests compare the two).
"""

from __future__ import annotations

from collections.abc import Iterator

import chess

from remis.unwinnable.reach import slider_targets

#: The costs of a move: free, one ply, extra (see the search).
REWARD, NORMAL, PUNISH = 0, 1, 2


def _knight_distances() -> list[list[int]]:
    table = []
    for src in chess.SQUARES:
        dist = [-1] * 64
        dist[src] = 0
        frontier = [src]
        while frontier:
            nxt = []
            for sq in frontier:
                for to in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[sq]):
                    if dist[to] < 0:
                        dist[to] = dist[sq] + 1
                        nxt.append(to)
            frontier = nxt
        table.append(dist)
    return table


#: Knight's and king's distances between two squares.
KNIGHT_DIST = _knight_distances()
KING_DIST = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]


def _closer(dist: list[list[int]]) -> list[list[int]]:
    """``[target][square]``: the squares nearer ``target`` than ``square``."""
    return [[sum(1 << s for s in chess.SQUARES if dist[s][t] < dist[sq][t])
             for sq in chess.SQUARES] for t in chess.SQUARES]


_KING_CLOSER = _closer(KING_DIST)
_KNIGHT_CLOSER = _closer(KNIGHT_DIST)
_KING_ATTACKS = chess.BB_KING_ATTACKS
_KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_HOME = (chess.BB_RANK_8, chess.BB_RANK_1)  # a side's back rank, by colour
_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
Move = chess.Move


def ordered_moves(board: chess.Board, winner: bool, king_target: chess.Square,
                  knight_target: chess.Square, free_pawns: int
                  ) -> Iterator[tuple[int, chess.Move]]:
    """The pseudo-legal moves of the side to move, out of check, with their
    costs, free moves first, extra last.  For the would-be ``winner``: free
    are captures, promotions, king steps toward ``king_target``, knight moves
    toward ``knight_target``, and the moves of the pawns on ``free_pawns`` (a
    bitboard); the rest cost one ply.  For the loser (where no promotion is
    needed for the mate): free are king steps toward ``king_target``, knight
    moves toward ``knight_target`` and the moves of the pawns on
    ``free_pawns`` that capture nothing; the other captures cost extra, the
    rest one ply.

    >>> b = chess.Board("4k3/8/8/8/8/8/4P3/4K2N w - - 0 1")
    >>> [(c, m.uci()) for c, m in ordered_moves(b, True, chess.H6, chess.H8,
    ...                                         chess.BB_RANK_7)][:5]
    [(0, 'h1g3'), (0, 'h1f2'), (0, 'e1f2'), (0, 'e1d2'), (1, 'e1f1')]
    >>> b = chess.Board("4k3/3n1R2/8/8/8/8/8/4K3 b - - 0 1")
    >>> loser = [(c, m.uci()) for c, m in ordered_moves(b, False, chess.A8, chess.B8, 0)]
    >>> loser[:3], loser[-1]
    ([(0, 'e8d8'), (0, 'd7b8'), (1, 'e8f8')], (2, 'e8f7'))
    """
    turn = board.turn
    us = board.occupied_co[turn]
    them = board.occupied_co[not turn]
    grab = them if winner else 0  # captures that are free
    worse = 0 if winner else them  # captures that cost extra
    kings, knights = board.kings, board.knights
    occupied = board.occupied
    diagonal = board.bishops | board.queens  # (board.attacks_mask, for them only)
    straight = board.rooks | board.queens
    later: list[tuple[int, int]] = []  # (from square, its moves that cost one ply)
    last: list[tuple[int, int]] = []  # (from square, its moves that cost extra)
    pieces = us & ~board.pawns
    while pieces:
        frm = pieces.bit_length() - 1
        bit = 1 << frm
        pieces ^= bit
        if bit & kings:
            targets = _KING_ATTACKS[frm] & ~us
            good = targets & (grab | _KING_CLOSER[king_target][frm])
        elif bit & knights:
            targets = _KNIGHT_ATTACKS[frm] & ~us
            good = targets & (grab | _KNIGHT_CLOSER[knight_target][frm])
        else:
            targets = slider_targets(frm, bit & diagonal, bit & straight, occupied) & ~us
            good = targets & grab
        rest = targets ^ good
        if rest & worse:
            last.append((frm, rest & worse))
        if rest & ~worse:
            later.append((frm, rest & ~worse))
        while good:
            to = good.bit_length() - 1
            good ^= 1 << to
            yield REWARD, Move(frm, to)
    castlings: list[chess.Move] = []
    if board.castling_rights & _HOME[turn] & us:
        for m in board.generate_castling_moves():
            if KING_DIST[m.to_square][king_target] < KING_DIST[m.from_square][king_target]:
                yield REWARD, m
            else:
                castlings.append(m)
    pawns = board.pawns & us
    pushes: list[chess.Move] = []
    captures: list[tuple[int, chess.Move]] = []
    if pawns:
        if winner:
            yield from _pawn_captures(pawns, them, turn, REWARD)
        else:
            captures.extend(_pawn_captures(pawns, them, turn, PUNISH))
        single, double, back = _advances(pawns, board.occupied, turn)
        while single:
            to = single.bit_length() - 1
            single ^= 1 << to
            frm = to + back
            if (1 << to) & _BACK_RANKS:
                if winner or (1 << frm) & free_pawns:
                    for p in _PROMOTIONS:
                        yield REWARD, Move(frm, to, p)
                else:
                    pushes.extend(Move(frm, to, p) for p in _PROMOTIONS)
            elif (1 << frm) & free_pawns:
                yield REWARD, Move(frm, to)
            else:
                pushes.append(Move(frm, to))
        while double:
            to = double.bit_length() - 1
            double ^= 1 << to
            frm = to + 2 * back
            if (1 << frm) & free_pawns:
                yield REWARD, Move(frm, to)
            else:
                pushes.append(Move(frm, to))
        if board.ep_square is not None:
            for m in board.generate_pseudo_legal_ep():
                if not winner:
                    captures.append((PUNISH, m))
                elif (1 << m.from_square) & free_pawns:
                    yield REWARD, m
                else:
                    pushes.append(m)
    for frm, rest in later:
        while rest:
            to = rest.bit_length() - 1
            rest ^= 1 << to
            yield NORMAL, Move(frm, to)
    for m in castlings:
        yield NORMAL, m
    for m in pushes:
        yield NORMAL, m
    for frm, rest in last:
        while rest:
            to = rest.bit_length() - 1
            rest ^= 1 << to
            yield PUNISH, Move(frm, to)
    yield from captures


def _advances(pawns: int, occupied: int, turn: chess.Color) -> tuple[int, int, int]:
    """The squares ``pawns`` reach one and two steps forward (as python-chess
    finds them) and the offset from such a square back to its pawn."""
    if turn:
        single = pawns << 8 & ~occupied
        return single, single << 8 & ~occupied & (chess.BB_RANK_3 | chess.BB_RANK_4), -8
    single = pawns >> 8 & ~occupied
    return single, single >> 8 & ~occupied & (chess.BB_RANK_6 | chess.BB_RANK_5), 8


def _pawn_captures(pawns: int, them: int, turn: chess.Color,
                   kind: int) -> Iterator[tuple[int, chess.Move]]:
    """The pawn captures (en passant aside), in python-chess's order."""
    table = _PAWN_ATTACKS[turn]
    while pawns:
        frm = pawns.bit_length() - 1
        pawns ^= 1 << frm
        targets = table[frm] & them
        while targets:
            to = targets.bit_length() - 1
            targets ^= 1 << to
            if (1 << to) & _BACK_RANKS:
                for p in _PROMOTIONS:
                    yield kind, Move(frm, to, p)
            else:
                yield kind, Move(frm, to)
