"""Shogi impasse (*jishogi*, entering kings): the two ways a game whose kings
have entered the promotion zones ends by counting points.

Points: a rook or bishop (promoted or not) is worth 5, every other piece 1,
the king nothing.

* **CSA 27-point declaration** (*nyūgyoku sengen*, the rule of the Computer
  Shogi Association's tournaments and servers; ``%KACHI`` in a CSA record).
  The side to move may declare a win when all of these hold: its king stands
  in the enemy camp (the three ranks where its pieces promote); at least ten
  of its other pieces stand there; its pieces there and in hand are worth at
  least 28 points for sente (the first player) or 27 for gote; its king is not
  in check.  (The server's last condition, time left on the clock, is the
  server's own.)  A correct declaration wins; an incorrect one loses.
* **JSA 24-point rule** (professional games): when both kings have entered
  and an impasse is adjudicated, each side counts every piece it has, on the
  board and in hand; a side with fewer than 24 points loses, and when both
  have 24 or more the game is drawn (*jishogi*).
"""

from __future__ import annotations

from dataclasses import dataclass

from remis.variants import ffish
from remis.variants.board import Board
from remis.variants.messages import VariantRuling
from remis.variants.rules import FIRST, SECOND, SHOGI

#: the citations of the two rules
DECLARATION_ARTICLE = "CSA entering-king declaration"
IMPASSE_ARTICLE = "JSA impasse"
#: points a declaration needs, sente's and gote's
DECLARATION_POINTS = (28, 27)
#: pieces besides the king that must stand in the enemy camp to declare
DECLARATION_PIECES = 10
#: points each side needs not to lose an adjudicated impasse
IMPASSE_POINTS = 24


def piece_points(piece: str) -> int:
    """A piece's worth in both impasse rules (``+R``, ``b``... as in FEN).

    >>> piece_points("+R"), piece_points("b"), piece_points("G"), piece_points("K")
    (5, 5, 1, 0)
    """
    kind = piece[-1].upper()
    return 0 if kind == "K" else 5 if kind in "RB" else 1


def in_camp(side: int, sq: int) -> bool:
    """Whether square ``sq`` (index ``rank * 9 + file``, rank 0 at sente's
    side) is in the enemy camp of ``side``: the far three ranks.

    >>> in_camp(FIRST, 8 * 9), in_camp(FIRST, 5 * 9), in_camp(SECOND, 2 * 9)
    (True, False, True)
    """
    rank = sq // 9
    return rank >= 6 if side == FIRST else rank <= 2


def _mine(piece: str, side: int) -> bool:
    return piece[-1].isupper() == (side == FIRST)


@dataclass(frozen=True)
class Declaration:
    """Whether the side to move may declare a win under the CSA 27-point
    rule, and the counts that decide it.

    >>> d = declaration(Board.from_fen("shogi", "9/9/9/9/9/9/9/9/k7K[] w"))
    >>> d.may_declare, d.king_in_camp, d.points, d.needed
    (False, False, 0, 28)
    """

    #: ``FIRST`` (sente) or ``SECOND`` (gote): the side to move, who declares
    side: int
    king_in_camp: bool
    #: pieces other than the king in the enemy camp
    pieces_in_camp: int
    #: points of the pieces in the enemy camp and in hand
    points: int
    #: points the declaration needs (28 sente, 27 gote)
    needed: int
    in_check: bool

    @property
    def may_declare(self) -> bool:
        """All four conditions hold."""
        return (self.king_in_camp and self.pieces_in_camp >= DECLARATION_PIECES
                and self.points >= self.needed and not self.in_check)

    def failed(self) -> list[str]:
        """The conditions that do not hold, in words.

        >>> declaration(Board.from_fen("shogi", "9/9/9/9/9/9/9/9/k7K[] w")).failed()[0]
        'the king is not in the enemy camp'
        """
        out = []
        if not self.king_in_camp:
            out.append("the king is not in the enemy camp")
        if self.pieces_in_camp < DECLARATION_PIECES:
            out.append(f"{self.pieces_in_camp} pieces besides the king in the enemy camp, "
                       f"not {DECLARATION_PIECES}")
        if self.points < self.needed:
            out.append(f"{self.points} points, not {self.needed}")
        if self.in_check:
            out.append("the king is in check")
        return out

    def to_json(self) -> dict[str, object]:
        """The object ``remis position --variant shogi --json`` prints.

        >>> declaration(Board.from_fen("shogi", "9/9/9/9/9/9/9/9/k7K[] w")).to_json()["rule"]
        'CSA entering-king declaration'
        """
        return {"rule": DECLARATION_ARTICLE, "side": SHOGI.players[self.side],
                "may_declare": self.may_declare, "king_in_camp": self.king_in_camp,
                "pieces_in_camp": self.pieces_in_camp, "points": self.points,
                "needed": self.needed, "in_check": self.in_check, "failed": self.failed()}


def declaration(board: Board, in_check: bool | None = None) -> Declaration:
    """The CSA 27-point declaration test for the side to move of a shogi
    ``board``; ``in_check`` is asked of pyffish when not given.

    >>> fen = "+R+B+SGG+P+P+P+P/K8/9/9/9/9/9/9/k8[BR] w - - 0 1"
    >>> d = declaration(Board.from_fen("shogi", fen))
    >>> d.pieces_in_camp, d.points, d.may_declare
    (9, 27, False)
    """
    side = FIRST if board.turn == "w" else SECOND
    king = in_zone = points = 0
    for sq, p in enumerate(board.cells):
        if not p or not _mine(p, side) or not in_camp(side, sq):
            continue
        if p[-1].upper() == "K":
            king = 1
            continue
        in_zone += 1
        points += piece_points(p)
    points += sum(piece_points(p) * n for p, n in board.hand.items() if _mine(p, side))
    if in_check is None:
        in_check = ffish.in_check("shogi", board.fen())
    return Declaration(side, bool(king), in_zone, points, DECLARATION_POINTS[side], in_check)


@dataclass(frozen=True)
class ImpasseCount:
    """The JSA 24-point count of an impasse: each side's points (on the board
    and in hand) and whose king has entered.

    >>> c = impasse_count(Board.from_fen("shogi", ffish.start_fen("shogi")))
    >>> c.points, c.result
    ((27, 27), '1/2-1/2')
    """

    points: tuple[int, int]
    kings_in_camp: tuple[bool, bool]

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or the draw: a side under 24 points loses."""
        short = [p < IMPASSE_POINTS for p in self.points]
        if short[FIRST] and not short[SECOND]:
            return "0-1"
        if short[SECOND] and not short[FIRST]:
            return "1-0"
        return "1/2-1/2"  # both 24 or more (both short cannot happen: 54 points in all)

    def to_json(self) -> dict[str, object]:
        """The object ``remis position --variant shogi --json`` prints.

        >>> impasse_count(Board.from_fen("shogi", ffish.start_fen("shogi"))).to_json()["needed"]
        24
        """
        return {"rule": IMPASSE_ARTICLE, "points": dict(zip(SHOGI.players, self.points,
                                                            strict=True)),
                "kings_in_camp": dict(zip(SHOGI.players, self.kings_in_camp, strict=True)),
                "needed": IMPASSE_POINTS, "result": self.result}


def impasse_count(board: Board) -> ImpasseCount:
    """Count both sides' points on a shogi ``board`` under the JSA 24-point
    rule.

    >>> impasse_count(Board.from_fen("shogi", "4k4/9/9/9/9/9/9/9/4K4[RBr] w")).points
    (10, 5)
    """
    points = [0, 0]
    kings = [False, False]
    for sq, p in enumerate(board.cells):
        if not p:
            continue
        side = FIRST if p[-1].isupper() else SECOND
        points[side] += piece_points(p)
        if p[-1].upper() == "K":
            kings[side] = in_camp(side, sq)
    for p, n in board.hand.items():
        points[FIRST if p.isupper() else SECOND] += piece_points(p) * n
    return ImpasseCount((points[0], points[1]), (kings[0], kings[1]))


def declaration_ruling(board: Board, ply: int) -> VariantRuling:
    """The ruling on a declaration by the side to move at ``ply``: it wins
    if the declaration is correct, and loses if not (CSA rules).

    >>> r = declaration_ruling(Board.from_fen("shogi", "9/9/9/9/9/9/9/9/k7K[] w"), 0)
    >>> r.result, r.termination, r.message
    ('0-1', 'impasse_declaration', 'variant_declaration_wrong')
    """
    d = declaration(board)
    players = SHOGI.players
    winner = d.side if d.may_declare else 1 - d.side
    params: dict[str, object] = {
        "player": players[d.side], "opponent": players[1 - d.side],
        "pieces": d.pieces_in_camp, "min_pieces": DECLARATION_PIECES, "points": d.points,
        "needed": d.needed, "king_in_camp": "yes" if d.king_in_camp else "no",
        "in_check": "yes" if d.in_check else "no", "article": DECLARATION_ARTICLE}
    return VariantRuling(
        ply=ply, result="1-0" if winner == FIRST else "0-1",
        termination="impasse_declaration", article=DECLARATION_ARTICLE, plies=(ply,),
        message="variant_declaration_right" if d.may_declare else "variant_declaration_wrong",
        params=params, evidence={"declaration": d.to_json()})


def impasse_ruling(board: Board, ply: int) -> VariantRuling:
    """The JSA 24-point adjudication of an impasse at ``ply``; raises
    ``ValueError`` unless both kings have entered the enemy camp.

    >>> impasse_ruling(Board.from_fen("shogi", ffish.start_fen("shogi")), 0)
    Traceback (most recent call last):
    ...
    ValueError: an impasse is adjudicated only when both kings have entered the enemy camp \
(Sente's has not, Gote's has not)
    """
    c = impasse_count(board)
    if not all(c.kings_in_camp):
        missing = ", ".join(f"{name}'s {'has' if inside else 'has not'}"
                            for name, inside in zip(SHOGI.players, c.kings_in_camp,
                                                    strict=True))
        raise ValueError("an impasse is adjudicated only when both kings have entered the "
                         f"enemy camp ({missing})")
    params: dict[str, object] = {"sente_points": c.points[FIRST], "gote_points": c.points[SECOND],
                                 "needed": IMPASSE_POINTS, "article": IMPASSE_ARTICLE}
    if c.result == "1/2-1/2":
        message = "variant_impasse_draw"
    else:
        loser = FIRST if c.result == "0-1" else SECOND
        message = "variant_impasse_loss"
        params.update(loser=SHOGI.players[loser], winner=SHOGI.players[1 - loser],
                      loser_points=c.points[loser])
    return VariantRuling(ply=ply, result=c.result, termination="impasse",
                         article=IMPASSE_ARTICLE, plies=(ply,), message=message,
                         params=params, evidence={"impasse": c.to_json()})
