"""English explanation templates for the arbiter's rulings and notes, keyed
by a stable message id (the web page and the message catalogues translate the
same ids; see :mod:`remis.messages` for the rules core's own ids)."""

from __future__ import annotations

from collections.abc import Mapping

from remis.messages import MESSAGES as CORE_MESSAGES
from remis.variants.messages import MESSAGES as VARIANT_MESSAGES

MESSAGES: dict[str, str] = {
    "resigned": "{loser} resigned: {winner} wins (Article 5.1.2).",
    "resigned_draw": "{loser} resigned, but {winner} cannot checkmate by any series of legal "
    "moves ({reason}): the game is drawn (Article 5.1.2).",
    "flag_loss": "{player}'s flag has fallen: {opponent} wins on time (Article {article}).",
    "flag_draw": "{player}'s flag has fallen, but {opponent} cannot checkmate by any series of "
    "legal moves ({reason}): the game is drawn (Article {article}).",
    "dead_found_late": "Neither player can checkmate by any series of legal moves, and so it "
    "has been since the position after {after} ({reason}): the game ended there in a dead "
    "position, drawn (Article 5.2.2); what happened after it does not count.",
    "dead_found_at_start": "Neither player can checkmate by any series of legal moves, and so "
    "it has been since the position the game was set up in ({reason}): the game ended there in "
    "a dead position, drawn (Article 5.2.2); what happened after it does not count.",
    "flag_first": "Both flags are down; the clock shows that {player}'s fell first (Article "
    "6.9).",
    "both_flags_draw": "Both flags fell in the last period and it cannot be established which "
    "fell first: the game is drawn (Guidelines {article}).",
    "both_flags_continue": "Both flags fell in a period that is not the last: the game continues "
    "and both players enter the next period (Guidelines {article}).",
    "online_flag": "{player}'s time had run out before this event: the server ends the game on "
    "time.",
    "physical_flag": "{player}'s time had run out before this event: the flag fell then, as "
    "this game counts a flag from the moment the time runs out (Article 6.8), and the game "
    "ends on time.",
    "draw_offered": "{player} offers a draw; it stands until {opponent} accepts or rejects it "
    "(Article {article}).",
    "draw_declined": "{player} rejects the draw offer (Article {article}).",
    "draw_agreed": "{player} accepts {opponent}'s draw offer: the game is drawn by agreement "
    "(Article {article}).",
    "offer_lapsed_touch": "{player} touched a piece: {opponent}'s draw offer is rejected "
    "(Article {article}).",
    "offer_lapsed_move": "{player} moved: {opponent}'s draw offer is rejected (Article {article}).",
    "touched": "{player} touched a piece and may not claim under 9.2 or 9.3 on this move "
    "(Article {article}).",
    "penalty": "{player} receives {seconds} seconds extra (Article {article}).",
    "penalty_not_given": "{player}'s flag has already fallen; no time is added (Article 6.8).",
    "claim_as_offer": "The incorrect claim stands as a draw offer by {player} (Article {article}).",
    "intended_move_required": "{player} must now play the written move {move} (Article "
    "{article}).",
    "illegal_corrected": "{player} completed an illegal move{move_text}; the position before it "
    "is reinstated (Article {article}).",
    "illegal_promoted": "{player} pressed the clock without promoting the pawn: it becomes a "
    "queen ({move}) (Article {article}).",
    "illegal_two_hands": "{player} made the move {move} with two hands: it is penalised as an "
    "illegal move (Article {article}).",
    "illegal_second_loss": "{player} completed a second illegal move: {opponent} wins (Article "
    "{article}).",
    "illegal_second_draw": "{player} completed a second illegal move, but {opponent} cannot "
    "checkmate by any series of legal moves ({reason}): the game is drawn (Article {article}).",
    "illegal_stands": "Nobody called {player}'s illegal move{move_text}: it stands and the game "
    "continues, unless it is called before {opponent}'s next move (Article {article}).",
    "illegal_unnoticed": "Nobody called {player}'s illegal move{move_text}: it stays on the "
    "board until it is found; then the position before it is reinstated (Article {article}).",
    "illegal_found": "{player}'s illegal move on move {number} is found: the position before it is "
    "reinstated and the moves after it are cancelled (Article {article}).",
    "clocks_set": "The arbiter sets the clocks: White {white} s, Black {black} s (Article "
    "{article}).",
    "a54_observed": "An illegal position is on the board (both kings in check, or a pawn on the "
    "last rank): the arbiter waits for the next completed move (Article {article}).",
    "a54_draw": "The illegal position is still on the board after the next completed move: the "
    "game is drawn (Article {article}).",
    "a54_cleared": "The next move is completed and the position on the board is no longer "
    "illegal: the game continues (Article {article}).",
    "draw_consent_asked": "{player} offers a draw; the event regulations require the arbiter's "
    "consent first, and the clocks are stopped (Article {article}).",
    "draw_consent_given": "The arbiter consents: {player}'s draw offer stands until {opponent} "
    "accepts or rejects it (Article {article}).",
    "draw_consent_refused": "The arbiter does not consent to {player}'s draw offer; the game "
    "continues (Article {article}).",
    "quickplay_claimed": "{player} claims a draw with {clock} left (the opponent cannot win by "
    "normal means or makes no effort to); the clocks are stopped for the arbiter's decision "
    "(Guidelines {article}).",
    "quickplay_accepted": "The arbiter accepts {player}'s claim: the game is drawn (Guidelines "
    "{article}).",
    "quickplay_postponed": "The arbiter postpones the decision on {player}'s claim; the game "
    "continues (Guidelines {article}).",
    "quickplay_rejected": "The arbiter rejects {player}'s claim; the game continues (Guidelines "
    "{article}).",
    "quickplay_flag_pending": "{player}'s flag fell while the decision on {player}'s claim was "
    "postponed: the arbiter now decides (Guidelines {article}).",
    "increment_requested": "{player} asks for a {seconds}-second increment for both players; this "
    "is also a draw offer (Guidelines {article}).",
    "increment_granted": "The arbiter grants the increment: both players get {seconds} seconds "
    "a move from now on (Guidelines {article}).",
    "increment_refused": "The arbiter refuses the increment request (Guidelines {article}).",
    "armageddon": "Armageddon: a drawn game counts as a win for Black (event regulations).",
    "variant_illegal_move_loss": "{player} completed an illegal move{move_text}: in shogi an "
    "illegal move loses at once, {opponent} wins ({article}).",
    "variant_touched": "{player} touched a piece to move it (Article {article}).",
    "online_auto_claim": "{player} had asked the server to claim threefold repetitions "
    "automatically.",
    "game_aborted": "{player} cancelled the game before both players had moved: it ends "
    "without a result.",
    "first_move_lapsed": "{player} made no first move in {seconds} s: the game is cancelled, "
    "without a result.",
    "request_fair_play": "{player} asks the arbiter to look into the opponent's fair play.",
    "request_time": "{player} asks the arbiter for time after a disturbance, such as a lost "
    "connection.",
    "request_other": "{player} calls the arbiter.",
    "request_upheld": "The arbiter upholds {player}'s request.",
    "request_rejected": "The arbiter rejects {player}'s request.",
    "time_added": "The arbiter gives {player} {seconds} s more (Article {article}).",
    "declared_fair_play": "The arbiter declares the game lost by {loser} for a breach of fair "
    "play: {winner} wins (Article {article}).",
    "declared_conduct": "The arbiter declares the game lost by {loser} for misconduct: {winner} "
    "wins (Article {article}).",
    "declared_win": "The arbiter declares that {winner} wins (Article {article}).",
    "declared_draw": "The arbiter declares the game drawn (Article {article}).",
    "arbiter_note": "The arbiter notes: {text}",
}


def render(key: str, params: Mapping[str, object]) -> str:
    """Render the English text of an arbiter (or rules core, or shogi and
    xiangqi) message id.

    >>> render("penalty", {"player": "Black", "seconds": 120, "article": "7.5.5"})
    'Black receives 120 seconds extra (Article 7.5.5).'
    >>> render("stalemate", {"player": "Black", "article": "5.2.1"})[:17]
    'Black has no lega'
    """
    template = MESSAGES.get(key) or VARIANT_MESSAGES.get(key)
    if template is None:
        template = CORE_MESSAGES[key]
    return template.format_map(dict(params))
