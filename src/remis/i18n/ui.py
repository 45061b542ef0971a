"""English source texts of the web page's own words (labels, buttons, notes),
keyed by a stable id.  Like :mod:`remis.messages`, they are the msgids of the
gettext catalogues; the page gets them translated from ``/v1/i18n/{lang}``.

Also the English words that rulings put into their parameters (``"White"``,
``"2 minutes"``, ``"4th"``, ``", and Nf3 must be played"``): a parameter value
that matches one of these patterns (``{n}`` and ``{move}`` match a number and a
move) is swapped for the translated pattern by :func:`remis.i18n.translate`.
"""

from __future__ import annotations

from remis.variants.messages import NO_CHASE_NOTE

UI: dict[str, str] = {
    "ui.title": "remis: the rulings of a FIDE arbiter",
    "ui.language": "Language",
    "ui.tab_play": "Play",
    "ui.tab_analyse": "Analyse",
    "ui.new_game": "New game",
    "ui.time_control": "Time control",
    "ui.mode": "Mode",
    "ui.start_fen": "Start position (FEN, optional)",
    "ui.white": "White",
    "ui.black": "Black",
    "ui.to_move": "{player} to move",
    "ui.acting": "Acting player",
    "ui.auto": "automatic",
    "ui.offer_draw": "Offer draw",
    "ui.accept_draw": "Accept draw",
    "ui.decline_draw": "Decline draw",
    "ui.claim_move": "Claim with a move",
    "ui.claim_now": "Claim now",
    "ui.claim_kind": "Claim under",
    "ui.threefold": "Threefold repetition (9.2)",
    "ui.fifty": "Fifty-move rule (9.3)",
    "ui.claim_mode_on": "Claim mode: make the intended move on the board; it is written, "
    "not played.",
    "ui.cancel": "Cancel",
    "ui.resign": "Resign",
    "ui.flag": "Flag fell",
    "ui.illegal_move": "Illegal move",
    "ui.touch": "Touched a piece",
    "ui.share": "Links for the players, the arbiter and spectators (each holds its own secret "
    "token):",
    "ui.link_white": "White's board",
    "ui.link_black": "Black's board",
    "ui.link_arbiter": "The arbiter's view",
    "ui.link_spectator": "Spectators (watch only)",
    "ui.no_token": "this page holds no token that may post this event",
    "ui.moves": "Moves",
    "ui.claimable": "Claimable now",
    "ui.nothing_claimable": "Nothing to claim.",
    "ui.log": "Arbiter's log",
    "ui.game_goes_on": "The game goes on.",
    "ui.article": "Article {article}",
    "ui.pending_offer": "{player} has offered a draw.",
    "ui.refused": "Refused: {detail}",
    "ui.illegal_moves": "Illegal moves: White {white}, Black {black}",
    "ui.analyse_input": "Paste a FEN or a PGN",
    "ui.analyse": "Analyse",
    "ui.no_end": "No automatic end: the game goes on.",
    "ui.claims_per_ply": "Claimable draws, ply by ply",
    "ui.ply": "Ply",
    "ui.player": "Player",
    "ui.move": "Move",
    "ui.explanation": "Explanation",
    "ui.play_line": "Play the line on the board",
    "ui.helpmate_line": "A helpmate exists: {line}",
    "ui.no_helpmate": "No helpmate exists: {reason}",
    "ui.flag_heading": "If a flag falls (Article 6.9): can the opponent still checkmate?",
    "ui.flag_of": "{player}'s flag falls:",
    "ui.can_mate_line": "{player} can still checkmate, e.g. {line}",
    "ui.can_mate": "{player} can still checkmate.",
    "ui.cannot_mate": "{player} cannot checkmate by any series of legal moves.",
    "ui.mate_unknown": "Not decided whether {player} can checkmate (search limit).",
    "ui.game_n": "Game {n}",
    "ui.error": "Error: {detail}",
    "ui.draw_agreement": "Draw offers",
    "ui.draw_allowed": "allowed",
    "ui.draw_arbiter_only": "only with the arbiter's consent (9.1.1)",
    "ui.quickplay_finish": "Quickplay finish (Guidelines III)",
    "ui.claim_quickplay": "Quickplay finish (Guidelines III.5)",
    "ui.claim_increment": "Increment request (Guidelines III.4)",
    "ui.arbiter_panel": "Arbiter's decisions",
    "ui.awaiting_quickplay": "{player} claims a draw under Guidelines {article}; the clocks are "
    "stopped until the arbiter decides.",
    "ui.awaiting_increment": "{player} asks for an increment under Guidelines {article}; the "
    "clocks are stopped until the arbiter decides.",
    "ui.awaiting_draw_offer": "{player} offers a draw, which needs the arbiter's consent "
    "(Article {article}); the clocks are stopped.",
    "ui.postponed_quickplay": "The decision on {player}'s claim under Guidelines {article} is "
    "postponed; the game goes on, and the arbiter may still accept or reject it.",
    "ui.quickplay_accept": "Accept the claim: draw",
    "ui.quickplay_postpone": "Postpone the decision",
    "ui.quickplay_reject": "Reject the claim",
    "ui.increment_grant": "Grant the increment",
    "ui.increment_refuse": "Refuse the increment",
    "ui.consent_give": "Consent to the draw offer",
    "ui.consent_refuse": "Refuse consent",
    "ui.extra_seconds": "Extra time for the opponent (seconds, optional)",
    "ui.found_later_hint": "Illegal moves standing on the board are marked in the move list: "
    "click one to select it.",
    "ui.found_later": "Illegal move found later: ply {ply}, {move} by {player} (Article 7.5.1)",
    "ui.found_later_none": "Illegal move found later: choose it in the move list",
    "ui.illegal_unnoticed": "Illegal move nobody noticed",
    "ui.unnoticed_mode_on": "Make the illegal move on the board: nobody calls it, so it stands "
    "until it is found (Article 7.5.1).",
    "ui.standing_move": "an illegal move standing on the board (Article 7.5.1)",
}

PARAMS: dict[str, str] = {
    "param.white": "White",
    "param.black": "Black",
    "param.minute": "1 minute",
    "param.minutes": "{n} minutes",
    "param.seconds": "{n} seconds",
    "param.ordinal_3": "3rd",
    "param.ordinal_n": "{n}th",
    "param.must_play": ", and {move} must be played",
    "param.move_note": " (the intended move {move} is a pawn move or a capture)",
    "param.checkmate": "checkmate",
    "param.stalemate": "stalemate",
    "param.insufficient_material": "insufficient_material",
    "param.dead_position": "dead_position",
    "param.fivefold_repetition": "fivefold_repetition",
    "param.seventyfive_moves": "seventyfive_moves",
    "param.threefold_repetition": "threefold_repetition",
    "param.fifty_moves": "fifty_moves",
    # the 9.3 rule a claim was judged by under --laws as-played (remis.rules.fifty_move_rule)
    "param.fifty_exception": "FIDE's {year} rule ({material}: {n} moves)",
    "param.fifty_standard": "the Laws in force on {date} (50 moves in every position)",
    "param.agreement": "agreement",
    "param.resignation": "resignation",
    "param.time_forfeit": "time_forfeit",
    # shogi and xiangqi (remis.variants): Sente, Gote and the games' names
    # are proper names and stay as they are
    "param.red": "Red",
    "param.identity_shogi": "board, pieces in hand and side to move",
    "param.identity_xiangqi": "board and side to move",
    "param.no_chase_note": NO_CHASE_NOTE,
}
