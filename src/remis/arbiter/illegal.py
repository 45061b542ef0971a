"""Completed illegal moves (7.5): correction and penalty, the second one
deciding the game (7.5.5); an illegal move nobody called is played on the
board, and when it is found later (an ``illegal_move`` event naming its
``ply``) the position before it is reinstated (7.5.1) -- without full
supervision only until the opponent's next move (A.5.2, B.3); and the
illegal positions of A.5.4 (both kings in check, a pawn on the last rank).
"""

from __future__ import annotations

from typing import Any

import chess

from remis.arbiter.base import _UCI, ArbiterBase, _secs, _title, illegal_position
from remis.arbiter.events import Event, RefusedEvent
from remis.ruling import color_name, move_label


def _unpromoted(board: chess.Board, move: chess.Move) -> bool:
    """True when ``move`` takes a pawn to its last rank without promoting it.

    >>> _unpromoted(chess.Board("8/4P3/8/8/8/k7/8/4K3 w - - 0 1"), chess.Move.from_uci("e7e8"))
    True
    """
    return (board.piece_type_at(move.from_square) == chess.PAWN and move.promotion is None
            and chess.square_rank(move.to_square) == (7 if board.turn else 0))


class IllegalMoves(ArbiterBase):
    """Illegal-move events of :class:`~remis.arbiter.Arbiter`.

    >>> IllegalMoves({"time_control": "60", "mode": "blitz"}).config.full_supervision
    True
    """

    def _on_illegal_move(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        cfg = self.config
        color = ev.color
        if cfg.mode == "online":
            raise RefusedEvent("online, illegal moves are rejected by the server and never "
                               "completed")
        caller = ev.called_by or ("arbiter" if cfg.full_supervision else "opponent")
        if ev.ply is not None:
            self._found_later(ev, color, caller, at, index)
            return
        last = self._standing.get(self.history.ply)
        if last is not None and last[0] == color and color != self.history.board.turn:
            raise RefusedEvent(f"{color_name(color)}'s illegal move stands on the board: to "
                               f"correct it, name it with 'ply': {self.history.ply} (Article "
                               "7.5.1)")
        self._require_on_move(color, "complete a move")
        kind = ev.kind or "move"
        move_text = f" ({ev.move})" if ev.move else ""
        base = {"player": _title(color), "opponent": _title(not color)}
        if self._pending_offer == (not color):  # the player handled a piece: 9.1.2.1
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_touch", {**base, "article": "9.1.2.1"})
        if caller == "nobody":
            self._illegal_stands(ev, color, at, index, base, move_text)
            return
        if kind == "unpromoted_pawn":
            move = self._unpromoted(ev)
            self._note(index, at, "illegal_promoted", {**base, "move": self.history.board.san(
                move), "article": "7.5.2"}, "7.5.2")
            self._play(move, color, at, index, increment=False)
        elif kind == "two_hands":
            legal = self._parse_move(ev.move or "")
            if legal is None:
                raise RefusedEvent("a two-handed move (7.5.4) needs the legal 'move' that was "
                                   "made")
            self._note(index, at, "illegal_two_hands",
                       {**base, "move": self.history.board.san(legal), "article": "7.5.4"},
                       "7.5.4")
            self._play(legal, color, at, index, increment=False)
        else:
            if ev.move is not None and self._parse_move(ev.move) is not None:
                raise RefusedEvent(f"{ev.move!r} is a legal move; play it with a move event")
            article = "7.5.3" if kind == "no_move" else "7.5.1"
            self._note(index, at, "illegal_corrected", {**base, "move_text": move_text,
                                                        "article": article}, article)
            self._touched = color
            # 7.5.1: touch-move (4.3) applies to the replacement move
            if ev.move and _UCI.match(ev.move) and self._touch_square is None:
                square = chess.parse_square(ev.move[:2])
                piece = self.history.board.piece_at(square)
                if piece is not None and piece.color == color:
                    self._touch_square = square
        if self._end is None:
            self._illegal_penalty(color, at, index, base)

    def _illegal_penalty(self, color: chess.Color, at: float, index: int,
                         base: dict[str, Any]) -> None:
        """7.5.5 after the correction: the opponent's extra time for the first
        completed illegal move, the game decided by the second."""
        cfg = self.config
        self._illegal[color] += 1
        if self._illegal[color] >= 2:
            self._lose_or_draw(index, at, color, "illegal_move", "7.5.5", "illegal_second_loss",
                               "illegal_second_draw", {**base, "article": "7.5.5"})
        else:
            self._penalise(not color, at, index, "7.5.5" if cfg.mode == "standard"
                           else cfg.penalty_article)

    def _unpromoted(self, ev: Event) -> chess.Move:
        board = self.history.board
        text = ev.move or ""
        move: chess.Move | None
        try:
            move = chess.Move.from_uci(text[:4])
        except ValueError:
            move = None
        if move is None:
            try:
                move = board.parse_san(text + "=Q")
            except ValueError:
                move = None
        if move is not None:
            move = chess.Move(move.from_square, move.to_square, chess.QUEEN)
        if move is None or not board.is_legal(move):
            raise RefusedEvent("an unpromoted pawn (7.5.2) needs 'move': the pawn's move to the "
                               "last rank, e.g. 'e7e8'")
        return move

    def _illegal_stands(self, ev: Event, color: chess.Color, at: float, index: int,
                        base: dict[str, Any], move_text: str) -> None:
        """An illegal move nobody called is played on the board.  Under full
        supervision it stays until it is found (7.5.1); otherwise it stands unless
        it is called before the opponent's next move (A.5.2 / B.3).  A position
        of A.5.4 (both kings in check, a pawn on the last rank) may stand only
        without full supervision: the arbiter waits for the next move."""
        board = self.history.board
        kind = ev.kind or "move"
        if self.config.full_supervision and kind not in ("move", "no_move"):
            raise RefusedEvent(f"under full supervision the arbiter acts on a {kind} illegal "
                               "move when it is completed (Articles 7.5.2, 7.5.4); called_by "
                               "cannot be 'nobody'")
        if kind == "no_move":
            move = chess.Move.null()
            trial = board.copy(stack=False)
            trial.push(move)
            if board.is_check() or not trial.is_valid():
                raise RefusedEvent("a clock press without a move cannot stand on the board "
                                   "here (the player is in check)")
        elif kind == "two_hands":
            parsed = self._parse_move(ev.move or "")
            if parsed is None:
                raise RefusedEvent("a two-handed move (7.5.4) needs the legal 'move' that was "
                                   "made")
            move = parsed
        else:
            move = self._standing_move(ev.move)
            if kind == "unpromoted_pawn" and not _unpromoted(board, move):
                raise RefusedEvent("an unpromoted pawn (7.5.2) needs 'move': the pawn's move to "
                                   "the last rank without promotion, e.g. 'e7e8'")
        # params["ply"]: the ply of the illegal move, as an event finding it names it
        ply = self.history.ply + 1
        if self.config.full_supervision:
            self._note(index, at, "illegal_unnoticed", {**base, "move_text": move_text,
                                                        "ply": ply, "article": "7.5.1"}, "7.5.1")
        else:
            self._note(index, at, "illegal_stands", {**base, "move_text": move_text,
                                                     "ply": ply, "article": "A.5.2"}, "A.5.2")
        if kind != "two_hands":
            if kind == "move" and _unpromoted(board, move):
                kind = "unpromoted_pawn"
            self._standing[ply] = (color, kind, move)
        self._play(move, color, at, index, legal=kind == "two_hands")
        if self._end is None and illegal_position(self.history.board):
            self._a54 = self.history.ply
            self._note(index, at, "a54_observed", {"article": "A.5.4"})

    def _standing_move(self, text: str | None) -> chess.Move:
        board = self.history.board
        if text is None:
            raise RefusedEvent("an illegal move that stands needs 'move' in UCI (e.g. 'e1e3') "
                               "so that it can be played on the board")
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise RefusedEvent(f"an illegal move that stands must be given in UCI, not "
                               f"{text!r}") from None
        if board.is_legal(move):
            raise RefusedEvent(f"{text!r} is a legal move; play it with a move event")
        piece = board.piece_at(move.from_square)
        target = board.piece_at(move.to_square)
        if piece is None or piece.color != board.turn or move.drop is not None or (
                target is not None and (target.color == board.turn
                                        or target.piece_type == chess.KING)):
            raise RefusedEvent(f"{text!r} does not move one of the mover's pieces to a free or "
                               "enemy (non-king) square")
        if move.promotion is not None and piece.piece_type != chess.PAWN:
            raise RefusedEvent(f"{text!r}: only a pawn can promote")
        trial = board.copy(stack=False)
        trial.push(move)
        if trial.is_valid():
            return move
        a54 = chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_OPPOSITE_CHECK
        backward = trial.pawns & (trial.occupied_co[chess.WHITE] & chess.BB_RANK_1
                                  | trial.occupied_co[chess.BLACK] & chess.BB_RANK_8)
        if self.config.full_supervision or trial.status() & ~a54 or backward or (
                trial.was_into_check() and not trial.is_check()):
            raise RefusedEvent(f"{text!r} would leave an impossible position on the board; it "
                               "can stand only without full supervision and only with both "
                               "kings in check or a pawn on the last rank (Article A.5.4)")
        return move

    def _found_later(self, ev: Event, color: chess.Color, caller: str, at: float,
                     index: int) -> None:
        """7.5.1: an illegal move that stood on the board is found; the position
        before it is reinstated (the later moves are cancelled, the clocks stay
        unless the arbiter sets them, 7.1) and 7.5.5 applies.  Without full
        supervision only before the opponent's next move (A.5.2, B.3)."""
        assert ev.ply is not None
        history = self.history
        ply = ev.ply
        standing = self._standing.get(ply)
        if standing is None or standing[0] != color:
            raise RefusedEvent(f"ply {ply} is not an illegal move by {color_name(color)} that "
                               "stands on the board (report it with called_by 'nobody' when it "
                               "is completed)")
        if not self.config.full_supervision and history.ply > ply:
            raise RefusedEvent(f"{color_name(not color)} has made the next move after the "
                               f"illegal move of ply {ply}: without full supervision it cannot "
                               "be corrected unless the players agree without the arbiter "
                               "(Article A.5.2)")
        _, kind, move = standing
        if kind == "unpromoted_pawn":
            before = history.board.copy()
            before.pop()
            if before.is_legal(chess.Move(move.from_square, move.to_square, chess.QUEEN)):
                self._promote_later(move, color, at, index)
                return
            kind = "move"  # not a pawn move either: 7.5.1
        cancelled = history.ply - ply
        while history.ply >= ply:
            history.pop()
        self._standing = {p: v for p, v in self._standing.items() if p < ply}
        self._a54 = None
        self._intended.clear()
        start = self._start_turn
        done = history.ply
        self._moves_made = {start: (done + 1) // 2, not start: done // 2}
        self._clock.reinstate(color, self._moves_made, at, ev.clocks)
        self._touched = None
        self._touch_square = None
        article = "7.5.3" if kind == "no_move" else "7.5.1"
        base = {"player": _title(color), "opponent": _title(not color)}
        number = move_label(ply, history.board, history.ply).rstrip(".…")
        self._note(index, at, "illegal_found", {**base, "ply": ply, "number": number,
                                                "cancelled": cancelled,
                                                "called_by": caller, "article": article},
                   article)
        if ev.clocks is not None:
            self._note(index, at, "clocks_set", {"white": _secs(ev.clocks[chess.WHITE]),
                                                 "black": _secs(ev.clocks[chess.BLACK]),
                                                 "article": "7.1"}, "7.1")
        if kind == "move":  # 7.5.1: touch-move (4.3) applies to the replacement move
            self._touched = color
            piece = history.board.piece_at(move.from_square)
            if piece is not None and piece.color == color:
                self._touch_square = move.from_square
        self._illegal_penalty(color, at, index, base)

    def _promote_later(self, move: chess.Move, color: chess.Color, at: float,
                       index: int) -> None:
        """7.5.2: a pawn left unpromoted on the last rank is called before the
        opponent's next move: it becomes a queen (the move stays completed)."""
        history = self.history
        history.pop()
        self._standing.pop(history.ply + 1, None)
        queen = chess.Move(move.from_square, move.to_square, chess.QUEEN)
        base = {"player": _title(color), "opponent": _title(not color)}
        self._note(index, at, "illegal_promoted", {**base, "move": history.board.san(queen),
                                                   "article": "7.5.2"}, "7.5.2")
        history.push(queen)
        self._a54 = None
        end = self._automatic_end(True)
        if end is not None:
            self._finish_ruling(index, at, end)
            return
        self._illegal_penalty(color, at, index, base)
