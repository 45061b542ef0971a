"""English explanations of variant rulings, keyed by message id (the same
scheme as :mod:`remis.messages`), and :class:`VariantRuling`, a
:class:`remis.ruling.Ruling` that renders from these templates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from remis.ruling import Ruling

MESSAGES: dict[str, str] = {
    "variant_repetition_draw": "The same position ({identity}) has appeared {count} times "
    "(plies {plies}) and neither side gave check with every move of the cycle: the game is "
    "drawn ({article}).{note}",
    "variant_mutual_perpetual_check": "The same position ({identity}) has appeared {count} "
    "times (plies {plies}) and both sides gave check with every move of the cycle: neither "
    "alone is at fault, the game is drawn ({article}).{note}",
    "variant_perpetual_check": "The same position ({identity}) has appeared {count} times "
    "(plies {plies}) and {loser} gave check with each of its {checks} moves of the cycle "
    "(plies {check_plies}): perpetual check is forbidden, {loser} loses and {winner} wins "
    "({article}).{note}",
    "variant_perpetual_chase": "The same position ({identity}) has appeared {count} times "
    "(plies {plies}), nobody gave check with every move of the cycle, and {loser} chased "
    "{winner}'s {chased} (on {chased_square} when the chase began), unprotected or worth more "
    "than its chaser, with each of its {chases} moves of the cycle (plies {chase_plies}), "
    "with its {chaser} (from {chaser_squares}): perpetual chase is forbidden, {loser} loses "
    "and {winner} wins ({article}).",
    "variant_mutual_perpetual_chase": "The same position ({identity}) has appeared {count} "
    "times (plies {plies}) and both sides chased with every move of the cycle: {red} chased "
    "the {chased_red} on {chased_square_red} (plies {chase_plies_red}), {black} the "
    "{chased_black} on {chased_square_black} (plies {chase_plies_black}); neither alone is at "
    "fault, the game is drawn ({article}).",
    "variant_declaration_right": "{player} declared a win by entering king: its king is in "
    "the enemy camp with {pieces} other pieces there, worth {points} points with those in "
    "hand ({needed} needed), and is not in check: the declaration is correct, {player} wins "
    "({article}).",
    "variant_declaration_wrong": "{player} declared a win by entering king, but the "
    "declaration is incorrect (king in the enemy camp: {king_in_camp}; {pieces} other pieces "
    "there, {min_pieces} needed; {points} points with those in hand, {needed} needed; in "
    "check: {in_check}): {player} loses and {opponent} wins ({article}).",
    "variant_impasse_draw": "Both kings have entered the enemy camp and the impasse is "
    "adjudicated: Sente has {sente_points} points and Gote {gote_points}, both at least "
    "{needed}: the game is drawn ({article}).",
    "variant_impasse_loss": "Both kings have entered the enemy camp and the impasse is "
    "adjudicated: Sente has {sente_points} points and Gote {gote_points}; {loser} has fewer "
    "than {needed}: {loser} loses and {winner} wins ({article}).",
    "variant_checkmate": "{loser} is in check and has no legal move: {winner} wins "
    "({article}).",
    "variant_no_legal_move": "{loser} has no legal move; in {game} a player without a legal "
    "move loses, even when not in check: {winner} wins ({article}).",
}

#: appended to xiangqi repetition draws when chases are not judged (``chase="none"``)
NO_CHASE_NOTE = (" Perpetual chase was not analysed (the chase rule is off), so a "
                 "repetition caused by a perpetual chase is also ruled a draw here.")
#: appended to a xiangqi perpetual check whose victim chased with every move
CHECK_BEATS_CHASE_NOTE = (" {player} chased with every one of its moves too, but a perpetual "
                          "check outweighs a perpetual chase (AXF perpetual chase).")
#: appended to xiangqi repetition draws when chases were judged and none was perpetual
CHASE_NOTE = (" Neither side chased with every one of its moves of the cycle (AXF perpetual "
              "chase).")


def render(key: str, params: Mapping[str, object]) -> str:
    """Render the English explanation for variant message ``key``.

    >>> render("variant_checkmate", {"loser": "Gote", "winner": "Sente",
    ...                              "article": "JSA checkmate"})
    'Gote is in check and has no legal move: Sente wins (JSA checkmate).'
    """
    return MESSAGES[key].format_map(dict(params))


@dataclass(frozen=True)
class VariantRuling(Ruling):
    """A :class:`remis.ruling.Ruling` whose message id is one of
    :data:`MESSAGES`; ``article`` cites the variant rule (e.g. ``"JSA
    sennichite"``).  ``1-0`` means the first player (sente, red) wins.

    >>> r = VariantRuling(ply=7, result="1-0", termination="checkmate",
    ...     article="WXF checkmate", plies=(7,), message="variant_checkmate",
    ...     params={"loser": "Black", "winner": "Red", "article": "WXF checkmate"})
    >>> r.to_json()["explanation"]
    'Black is in check and has no legal move: Red wins (WXF checkmate).'
    """

    @property
    def explanation(self) -> str:
        """The English one-sentence explanation.

        >>> VariantRuling(0, "1-0", "no_legal_move", "JSA no legal move", (0,),
        ...     "variant_no_legal_move", {"loser": "Gote", "winner": "Sente", "game": "shogi",
        ...     "article": "JSA no legal move"}).explanation.split(";")[0]
        'Gote has no legal move'
        """
        return render(self.message, self.params)
