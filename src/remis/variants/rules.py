"""Which repetition rules a variant game is played under, and the rules
themselves as pure functions over per-ply facts (occurrence plies and which
moves gave check).

Sources, in our own words (the Japan Shogi Association's sennichite rule; the World
Xiangqi Federation's rules, as H. G. Muller summarises them on chessvariants.com):

* Shogi, JSA rules: the fourth occurrence of the same position (board,
  pieces in hand, side to move) ends the game; it is a draw (*sennichite*)
  unless one side gave check with every one of its moves from the first to
  the fourth occurrence: that side loses.  Only the checking side's moves are
  judged, whichever side made the last move.
* Xiangqi, Asian/WXF rules as the source text simplifies them: the same
  fourfold rule and loss for perpetual check; the number of occurrences is
  configurable (many servers use 3).  When neither side checked with every
  move, a side that chased an unprotected piece with every one of its moves
  of the cycle loses (AXF perpetual chase, :mod:`remis.variants.chase`);
  both chasing is a draw.  ``chase="none"`` leaves chases unjudged.
"""

from __future__ import annotations

from dataclasses import dataclass

FIRST, SECOND = 0, 1


@dataclass(frozen=True)
class VariantRules:
    """The rule set of one variant game.

    >>> SHOGI.repetitions, xiangqi_rules(3).repetitions
    (4, 3)
    """

    #: pyffish variant name: ``"shogi"`` or ``"xiangqi"``
    variant: str
    #: occurrences of one position that end the game
    repetitions: int
    #: a side that checked with every move of the cycle loses
    perpetual_check_loses: bool
    #: names of the first and second player
    players: tuple[str, str]
    #: the body whose rules are cited
    authority: str
    #: xiangqi perpetual chase: ``"axf"`` (judged) or ``"none"`` (not analysed)
    chase: str = "none"

    def article(self, rule: str) -> str:
        """The citation of ``rule`` (``repetition``, ``perpetual_check``,
        ``checkmate``, ``no_legal_move``, ``illegal_move``, ``perpetual_chase``)
        under this rule set.

        >>> SHOGI.article("repetition"), XIANGQI.article("perpetual_check")
        ('JSA sennichite', 'WXF perpetual check')
        >>> XIANGQI.article("perpetual_chase")
        'AXF perpetual chase'
        """
        if rule == "perpetual_chase":
            return "AXF perpetual chase"
        names = {
            "repetition": "sennichite" if self.variant == "shogi" else "repetition",
            "perpetual_check": "perpetual check",
            "checkmate": "checkmate",
            "no_legal_move": "no legal move",
            "illegal_move": "illegal move",
        }
        return f"{self.authority} {names[rule]}"


SHOGI = VariantRules("shogi", 4, True, ("Sente", "Gote"), "JSA")
XIANGQI = VariantRules("xiangqi", 4, True, ("Red", "Black"), "WXF", "axf")
#: the ways a xiangqi rule set may judge chases
CHASE_RULES = ("axf", "none")
VARIANTS = ("shogi", "xiangqi")


def xiangqi_rules(repetitions: int = 4, chase: str = "axf") -> VariantRules:
    """Xiangqi rules with ``repetitions`` occurrences ending the game (2 or
    more) and perpetual chase judged (``"axf"``) or not (``"none"``).

    >>> xiangqi_rules(3).article("repetition"), xiangqi_rules(3, "none").chase
    ('WXF repetition', 'none')
    """
    if repetitions < 2:
        raise ValueError(f"repetition count must be at least 2, not {repetitions}")
    if chase not in CHASE_RULES:
        raise ValueError(f"unknown chase rule {chase!r}: choose one of {', '.join(CHASE_RULES)}")
    return VariantRules("xiangqi", repetitions, True, ("Red", "Black"), "WXF", chase)


def rules_for(variant: str, repetitions: int | None = None,
              chase: str | None = None) -> VariantRules:
    """The rule set for ``variant``; ``repetitions`` overrides the count and
    ``chase`` the chase rule (xiangqi only: shogi's fourfold rule is fixed by
    the JSA, and shogi has no chase rule).

    >>> rules_for("shogi") is SHOGI
    True
    >>> rules_for("xiangqi", 3).repetitions
    3
    """
    if variant == "shogi":
        if repetitions not in (None, 4):
            raise ValueError("shogi repetition (sennichite) is always fourfold")
        if chase not in (None, "none"):
            raise ValueError("shogi has no chase rule")
        return SHOGI
    if variant == "xiangqi":
        if repetitions in (None, 4) and chase in (None, "axf"):
            return XIANGQI
        return xiangqi_rules(4 if repetitions is None else repetitions, chase or "axf")
    raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}")


def perpetual_checkers(first_ply: int, last_ply: int, first_mover: int,
                       checks: list[bool]) -> tuple[int, ...]:
    """The sides (``FIRST``/``SECOND``) that gave check with every one of their
    moves played from position ``first_ply`` to position ``last_ply``.

    ``checks[k]`` tells whether the move that produced position ``k`` gave
    check; ``first_mover`` is the side that made the move of ply 1.

    >>> # plies 1..4: first side checks on 1 and 3, second never
    >>> perpetual_checkers(0, 4, FIRST, [False, True, False, True, False])
    (0,)
    >>> # the first side's move at ply 1 did not check: nobody
    >>> perpetual_checkers(0, 4, FIRST, [False, False, False, True, False])
    ()
    """
    out: list[int] = []
    for side in (FIRST, SECOND):
        start = first_ply + 1
        # ply k was played by first_mover when k is odd
        if (start % 2 == 1) != (side == first_mover):
            start += 1
        moves = range(start, last_ply + 1, 2)
        if len(moves) and all(checks[k] for k in moves):
            out.append(side)
    return tuple(out)
