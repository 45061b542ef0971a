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
    "fivefold_repetition": "The same position has appeared five times ({positions}): the game "
    "is drawn automatically (Article {article}).",
    "seventyfive_moves": "Each player has made 75 moves without a pawn move or capture: the "
    "game is drawn automatically (Article {article}).",
    # claims a player may make now (hints)
    "claim_threefold_on_board": "{player} may claim a draw under Article {article}: the position "
    "on the board has appeared {count} times ({positions}).",
    "claim_threefold_with_move": "{player} may claim a draw under Article {article} by writing "
    "{move}, which would make the position appear for the {nth} time ({positions}).",
    "claim_fifty_on_board": "{player} may claim a draw under Article {article}: each player has "
    "made 50 moves without a pawn move or capture.",
    "claim_fifty_with_move": "{player} may claim a draw under Article {article} by writing a move "
    "that is neither a pawn move nor a capture ({move}): it would complete 50 moves by each "
    "player.",
    # claims made: the verdicts
    "claim_threefold_on_board_upheld": "Draw: {player}'s claim under Article {article} is "
    "correct; the position on the board has appeared {count} times ({positions}).",
    "claim_threefold_with_move_upheld": "Draw: {player}'s claim under Article {article} is "
    "correct; the written move {move} would make the position appear for the {nth} time "
    "({positions}), so it is not played.",
    "claim_fifty_on_board_upheld": "Draw: {player}'s claim under Article {article} is correct; "
    "each player has made 50 moves without a pawn move or capture.",
    "claim_fifty_with_move_upheld": "Draw: {player}'s claim under Article {article} is correct; "
    "the written move {move}, neither a pawn move nor a capture, would complete 50 moves by "
    "each player, so it is not played.",
    # incorrect claims
    "claim_wrong_player": "The claim is incorrect: {player} does not have the move, and only "
    "the player having the move may claim (Article {article}). It stands as a draw offer "
    "(9.1.2.3).",
    "claim_illegal_move": "The claim is incorrect: the written move {move} is not legal here "
    "(Article {article}).",
    "claim_threefold_incorrect": "The claim under Article {article} is incorrect: the position "
    "has appeared {count} of the three times needed ({positions}). The opponent gets {penalty} "
    "more, the game goes on{must_play}, and the claim stands as a draw offer (9.5.3, 9.1.2.3).",
    "claim_fifty_incorrect": "The claim under Article {article} is incorrect: only {count} of "
    "the 100 moves needed (50 by each player) have been made without a pawn move or capture"
    "{move_note}. The opponent gets {penalty} more, the game goes on{must_play}, and the claim "
    "stands as a draw offer (9.5.3, 9.1.2.3).",
    # the same, under the Laws of a game's date (--laws as-played), naming the 9.3 rule
    "claim_fifty_on_board_as_played": "{player} may claim a draw under Article {article}: "
    "each player has made {moves} moves without a pawn move or capture, enough under {rule}.",
    "claim_fifty_with_move_as_played": "{player} may claim a draw under Article {article} by "
    "writing a move that is neither a pawn move nor a capture ({move}): it would complete "
    "{moves} moves by each player, enough under {rule}.",
    "claim_fifty_on_board_as_played_upheld": "Draw: {player}'s claim under Article {article} is "
    "correct; each player has made {moves} moves without a pawn move or capture, enough "
    "under {rule}.",
    "claim_fifty_with_move_as_played_upheld": "Draw: {player}'s claim under Article {article} "
    "is correct; the written move {move}, neither a pawn move nor a capture, would complete "
    "{moves} moves by each player, enough under {rule}, so it is not played.",
    "claim_fifty_incorrect_as_played": "The claim under Article {article} is incorrect: only "
    "{count} of the {needed} moves needed ({moves} by each player under {rule}) have been made "
    "without a pawn move or capture{move_note}. The opponent gets {penalty} more, the game goes "
    "on{must_play}, and the claim stands as a draw offer (9.5.3, 9.1.2.3).",
    "claim_game_over": "No claim can be made: the game is already over ({termination}, Article "
    "{article}).",
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


#: the verdict on a correct claim that was made, for each claim a player may make
VERDICTS: dict[str, str] = {key: f"{key}_upheld" for key in (
    "claim_threefold_on_board", "claim_threefold_with_move", "claim_fifty_on_board",
    "claim_fifty_with_move", "claim_fifty_on_board_as_played",
    "claim_fifty_with_move_as_played")}


def render(key: str, params: Mapping[str, object]) -> str:
    """Render the English explanation for message ``key``.

    >>> render("stalemate", {"player": "Black", "article": "5.2.1"})
    'Black has no legal move and is not in check: stalemate, the game is drawn (Article 5.2.1).'
    """
    return MESSAGES[key].format_map(dict(params))
