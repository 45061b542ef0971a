"""Completed illegal moves (7.5): correction and penalty, the second one
deciding the game (7.5.5), and without full supervision (A.5.2, B.3) an
illegal move nobody called that stands.
"""

from __future__ import annotations

from typing import Any

import chess

from remis.arbiter.base import _UCI, ArbiterBase, _title
from remis.arbiter.events import Event, RefusedEvent


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
        self._require_on_move(color, "complete a move")
        caller = ev.called_by or ("arbiter" if cfg.full_supervision else "opponent")
        kind = ev.kind or "move"
        move_text = f" ({ev.move})" if ev.move else ""
        base = {"player": _title(color), "opponent": _title(not color)}
        if self._pending_offer == (not color):  # the player handled a piece: 9.1.2.1
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_touch", {**base, "article": "9.1.2.1"})
        if caller == "nobody":
            if cfg.full_supervision:
                raise RefusedEvent("under full supervision the arbiter acts on every completed "
                                   "illegal move (Article 7.5.1; A.4, B.2): called_by cannot be "
                                   "'nobody'")
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
        if self._end is not None:
            return
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
        """A.5.2 / B.3: an illegal move nobody called before the opponent's next
        move stands.  It is played on the board if the result is a valid position."""
        board = self.history.board
        kind = ev.kind or "move"
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
        self._note(index, at, "illegal_stands", {**base, "move_text": move_text,
                                                 "article": "A.5.2"}, "A.5.2")
        self._play(move, color, at, index)

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
        if not trial.is_valid():
            raise RefusedEvent(f"{text!r} would leave an impossible position on the board "
                               "(A.5.4 cases are not supported); it cannot stand")
        return move
