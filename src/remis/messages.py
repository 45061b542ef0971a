"""English explanation templates for every ruling, keyed by a stable message id.

Rulings carry a message id and parameters; :func:`render` turns them into an
English sentence.  The same templates are the msgids of the gettext catalogues
used for other languages, so a template changed here must be changed there.
"""

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: dict[str, str] = {
    # automatic ends
    "checkmate": "{winner} checkmated {loser}: the game ends at once (Article {article}).",
    "stalemate": "{player} has no legal move and is not in check: stalemate, the game is drawn "
    "(Article {article}).",
    "insufficient_material": "Neither player has the material to checkmate by any series of "
    "legal moves ({material}): dead position, the game is drawn (Article {article}).",
    "dead_position": "Neither player can checkmate by any series of legal moves ({reason}): "
    "dead position, the game is drawn (Article {article}).",
    "fivefold_repetition": "The same position has appeared five times (plies {plies}): the game "
    "is drawn automatically (Article {article}).",
    "seventyfive_moves": "Each player has made 75 moves without a pawn move or capture "
    "({count} plies): the game is drawn automatically (Article {article}).",
    # claims
    "claim_threefold_on_board": "{player} has the move and the position on the board has "
    "appeared {count} times (plies {plies}): a claim is correct (Article {article}).",
    "claim_threefold_with_move": "{player} may write {move} and claim: it would make the "
    "position appear for the {nth} time (plies {plies}) (Article {article}).",
    "claim_fifty_on_board": "{player} has the move and the last {count} plies contain no pawn "
    "move and no capture: a claim is correct (Article {article}).",
    "claim_fifty_with_move": "{player} may write a move that is neither a pawn move nor a "
    "capture ({move}) and claim: it completes 50 moves by each player (Article {article}).",
    # incorrect claims
    "claim_wrong_player": "{player} does not have the move; only the player having the move "
    "may claim (Article {article}). The claim stands as a draw offer (9.1.2.3).",
    "claim_illegal_move": "The intended move {move} is not legal here, so the claim cannot be "
    "correct (Article {article}).",
    "claim_threefold_incorrect": "The position has appeared only {count} time(s) (plies "
    "{plies}); a threefold repetition needs three (Article {article}). The opponent gets "
    "{penalty} more, the game goes on{must_play}, and the claim stands as a draw offer "
    "(9.5.3, 9.1.2.3).",
    "claim_fifty_incorrect": "Only {count} plies have passed without a pawn move or capture"
    "{move_note}; 100 are needed (Article {article}). The opponent gets {penalty} more, the "
    "game goes on{must_play}, and the claim stands as a draw offer (9.5.3, 9.1.2.3).",
    # the same, under the Laws of a game's date (--laws as-played), naming the 9.3 rule
    "claim_fifty_on_board_as_played": "{player} has the move and the last {count} plies contain "
    "no pawn move and no capture: under {rule} a claim is correct (Article {article}).",
    "claim_fifty_with_move_as_played": "{player} may write a move that is neither a pawn move "
    "nor a capture ({move}) and claim: it completes {moves} moves by each player, as {rule} "
    "requires (Article {article}).",
    "claim_fifty_incorrect_as_played": "Only {count} plies have passed without a pawn move or "
    "capture{move_note}; under {rule} {needed} are needed (Article {article}). The opponent gets "
    "{penalty} more, the game goes on{must_play}, and the claim stands as a draw offer "
    "(9.5.3, 9.1.2.3).",
    "claim_game_over": "The game is already over ({termination}, Article {article}); no claim "
    "can be made.",
    # flag fall (6.9)
    "flag_fall_win": "{player} ran out of time and {opponent} can still checkmate by a series "
    "of legal moves ({reason}): {opponent} wins (Article {article}).",
    "flag_fall_draw": "{player} ran out of time but {opponent} cannot checkmate by any series "
    "of legal moves ({reason}): the game is drawn (Article {article}).",
    "flag_fall_undecided": "{player} ran out of time; whether {opponent} can still checkmate "
    "was not decided within the search limits ({reason}), so the loss on time stands "
    "(Article {article}).",
    "flag_fall_after_end": "The game had already ended ({termination}, Article {end_article}) "
    "before {player}'s flag fell; the flag fall changes nothing (Article {article}).",
}


def render(key: str, params: Mapping[str, object]) -> str:
    """Render the English explanation for message ``key``.

    >>> render("stalemate", {"player": "Black", "article": "5.2.1"})
    'Black has no legal move and is not in check: stalemate, the game is drawn (Article 5.2.1).'
    """
    return MESSAGES[key].format_map(dict(params))
