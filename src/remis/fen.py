"""Positions given as FEN: read, and checked for legality with the reason
named (a position no series of legal moves reaches).  The test itself is the
core's (``rust/src/unwinnable/valid.rs``), the one home of the rule: this
module hands it python-chess's board."""

from __future__ import annotations

import chess

from remis import _core

#: the largest halfmove clock and fullmove number the core holds (2**32 - 1)
MAX_COUNTER = 0xFFFF_FFFF


def parse_fen(fen: str) -> chess.Board:
    """Parse a FEN (X-FEN/Shredder castling selects Chess960) and check that
    the position is legal; raise :class:`ValueError` with a clear message
    that names the FEN once.

    >>> parse_fen("8/8/8/8/8/8/8/Kk6 w - - 0 1").fen()
    Traceback (most recent call last):
    ...
    ValueError: illegal position: kings on adjacent squares (8/8/8/8/8/8/8/Kk6 w - - 0 1)
    >>> parse_fen("8/8/8/8/8/8/8/K1k5 x - - 0 1")
    Traceback (most recent call last):
    ...
    ValueError: malformed FEN '8/8/8/8/8/8/8/K1k5 x - - 0 1': expected 'w' or 'b' for turn ...
    """
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        raise ValueError(f"malformed FEN {fen!r}: {_without_echo(str(exc), fen)}") from None
    if board.has_chess960_castling_rights():
        board.chess960 = True
    reason = illegal_reason(board)
    if reason is not None:
        raise ValueError(f"illegal position: {reason} ({fen})")
    return board


def _without_echo(message: str, fen: str) -> str:
    """python-chess's message without the FEN (or the part of it) it quotes
    at its end: the caller names the FEN once.

    >>> _without_echo("invalid character in position part of fen: 'xx/8'", "xx/8 w - - 0 1")
    'invalid character in position part of fen'
    """
    head, sep, quoted = message.rpartition(": ")
    if sep and len(quoted) >= 2 and quoted[0] == quoted[-1] == "'" and quoted[1:-1] in fen:
        return head
    return message


def illegal_reason(board: chess.Board) -> str | None:
    """Why the position cannot arise in a game, or None when it can: the
    core's test (python-chess's ``Board.status()`` and a double check that no
    move can have given), and clocks the core can hold.

    >>> illegal_reason(chess.Board()) is None
    True
    >>> illegal_reason(chess.Board("k7/8/8/8/8/8/8/K6r b - - 0 1"))
    'the side not to move is in check'
    >>> illegal_reason(chess.Board("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1"))
    'two pieces give check and neither is a bishop, rook or queen'
    >>> illegal_reason(chess.Board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 4294967296"))
    'the fullmove number 4294967296 is out of range (at most 4294967295)'
    """
    for value, name in ((board.halfmove_clock, "halfmove clock"),
                        (board.fullmove_number, "fullmove number")):
        if not 0 <= value <= MAX_COUNTER:
            return f"the {name} {value} is out of range (at most {MAX_COUNTER})"
    white = board.occupied_co[chess.WHITE]
    roles = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    return _core.illegal_reason(roles, white, board.occupied ^ white, board.turn,
                                board.castling_rights, board.ep_square, board.chess960)
