"""English source texts of the web page's own words (labels, buttons, notes),
keyed by a stable id.  Like :mod:`remis.messages`, they are the msgids of the
gettext catalogues; the page gets them translated from ``/v1/i18n/{lang}``.

Also the English words that rulings put into their parameters (``"White"``,
``"2 minutes"``, ``"4th"``, ``", and Nf3 must be played"``): a parameter value
that matches one of these patterns (``{n}`` and ``{move}`` match a number and a
move) is swapped for the translated pattern by :func:`remis.i18n.translate`;
the unwinnability engine's reasons among them (:mod:`remis.reasons`).  Then
the letters of material as each language writes it (``K+B v K`` is ``K+S proti
K`` in Czech), and the words for each way a game ends.
"""

from __future__ import annotations

from remis.messages import TERMINATIONS
from remis.reasons import REASONS
from remis.variants.chase import PIECE_NAMES
from remis.variants.messages import CHASE_NOTE, CHECK_BEATS_CHASE_NOTE, NO_CHASE_NOTE

UI: dict[str, str] = {
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
    "ui.touch": "Touched a piece",
    "ui.share": "Links to share (each holds its own secret):",
    "ui.link_white": "White's board",
    "ui.link_black": "Black's board",
    "ui.link_arbiter": "The arbiter's view",
    "ui.link_spectator": "Spectators (watch only)",
    "ui.claimable": "Claimable now",
    "ui.nothing_claimable": "Nothing to claim.",
    "ui.log": "Arbiter's log",
    "ui.article": "Article {article}",
    "ui.pending_offer": "{player} has offered a draw.",
    "ui.refused": "Refused: {detail}",
    "ui.illegal_moves": "Illegal moves: White {white}, Black {black}",
    "ui.analyse_input": "Paste a FEN or a PGN",
    "ui.analyse": "Analyse",
    "ui.no_end": "No automatic end: the game goes on.",
    "ui.claims_per_ply": "Claimable draws, ply by ply",
    "ui.player": "Player",
    "ui.move": "Move",
    "ui.explanation": "Explanation",
    "ui.play_line": "Play the line on the board",
    "ui.helpmate_line": "A helpmate exists: {line}",
    "ui.flag_heading": "If a flag falls (Article 6.9): can the opponent still checkmate?",
    "ui.flag_of": "{player}'s flag falls:",
    "ui.can_mate_line": "{player} can still checkmate, e.g. {line}",
    "ui.can_mate": "{player} can still checkmate.",
    "ui.cannot_mate": "{player} cannot checkmate by any series of legal moves{reason}.",
    "ui.mate_unknown": "Not decided whether {player} can checkmate{reason}.",
    "ui.game_n": "Game {n}",
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
    "ui.found_later": "Illegal move found later: {number} {move} by {player} (Article 7.5.1)",
    "ui.found_later_none": "Illegal move found later: choose it in the move list",
    "ui.illegal_unnoticed": "Illegal move nobody noticed",
    "ui.unnoticed_mode_on": "Make the illegal move on the board: nobody calls it, so it stands "
    "until it is found (Article 7.5.1).",
    "ui.standing_move": "an illegal move standing on the board (Article 7.5.1)",
    "ui.new_game_title": "A new game",
    "ui.side": "You play",
    "ui.side_white": "White",
    "ui.side_black": "Black",
    "ui.side_arbiter": "Neither: I am the arbiter",
    "ui.mode_online": "online (the server's clock decides)",
    "ui.mode_blitz": "blitz, over the board",
    "ui.mode_rapid": "rapid, over the board",
    "ui.mode_standard": "standard, over the board",
    "ui.more_options": "More options",
    "ui.my_games": "Your games",
    "ui.no_games": "No games yet: the games you create or open appear here.",
    "ui.tc_meaning": "{minutes} min + {seconds} s a move",
    "ui.no_clock": "no clock",
    "ui.err_time_control": "Write the time control as minutes + seconds a move, e.g. 3+2 or 90+30.",
    "ui.err_config": "This game cannot be set up: {detail}",
    "ui.you_are": "You are {player}",
    "ui.role_arbiter": "Arbiter",
    "ui.role_spectator": "Spectator (watching only)",
    "ui.your_move": "Your move",
    "ui.clocks_stopped": "The clocks are stopped: the arbiter decides.",
    "ui.white_wins": "White wins",
    "ui.black_wins": "Black wins",
    "ui.draw": "Draw",
    "ui.game_over": "Game over",
    "ui.claim_with": "Claim a draw with {move} ({article})",
    "ui.claim_on_board": "Claim a draw ({article})",
    "ui.claim_other": "Another claim",
    "ui.claim_flag": "{player}'s flag has fallen: claim the win",
    "ui.claim_illegal": "{player}'s move was illegal: claim it",
    "ui.call_flag": "Flag fallen: {player}",
    "ui.call_illegal": "Illegal move by {player}",
    "ui.seen_touch": "{player} touched a piece",
    "ui.resign_confirm": "Resign? Click again",
    "ui.flip": "Flip board",
    "ui.copy": "Copy",
    "ui.copied": "Copied",
    "ui.download_pgn": "Download PGN",
    "ui.connection_lost": "The connection to the server is lost; trying again…",
    "ui.err_network": "The remis server cannot be reached. Check the connection; the page keeps "
    "trying.",
    "ui.err_link_incomplete": 'This link is incomplete: its secret part (after "token=") is '
    'missing. Copy the whole link again.',
    "ui.err_link_wrong": "This link does not open this game: its secret part is wrong. Copy the "
    "whole link again.",
    "ui.err_no_game": "There is no such game on this server.",
    "ui.err_busy": "The server is busy; try again in a moment.",
    "ui.err_empty_input": "Paste a FEN (one line) or a game in PGN first.",
    "ui.err_neither": "This is neither a FEN nor a PGN. A FEN is one line such as "
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1; a PGN has moves such as 1. e4 e5.",
    "ui.err_fen": "This FEN cannot be read: {detail}",
    "ui.err_pgn_at": "The moves cannot be read from move {move} on:",
    "ui.err_pgn": "This game cannot be read:",
    "ui.after_move": "After move",
    "ui.start": "start",
    "ui.queen": "Queen",
    "ui.knight": "Knight",
    "ui.rook": "Rook",
    "ui.bishop": "Bishop",
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
    # the 9.3 rule a claim was judged by under --laws as-played (remis.rules.fifty_move_rule)
    "param.fifty_exception": "FIDE's {year} rule ({material}: {n} moves)",
    "param.fifty_standard": "the Laws in force on {date} (50 moves in every position)",
    # shogi and xiangqi (remis.variants): Sente, Gote and the games' names
    # are proper names and stay as they are
    "param.red": "Red",
    "param.identity_shogi": "board, pieces in hand and side to move",
    "param.identity_xiangqi": "board and side to move",
    "param.no_chase_note": NO_CHASE_NOTE,
    "param.chase_note": CHASE_NOTE,
    "param.check_beats_chase": CHECK_BEATS_CHASE_NOTE,
    "param.yes": "yes",
    "param.no": "no",
    # xiangqi pieces, as chase rulings name them
    **{f"param.xq_{name}": name for name in (*PIECE_NAMES.values(), "pieces")},
    # where a position stood (remis.ruling.positions_text)
    "param.at_start": "at the start",
    "param.after_move": "after {move}",
    # the unwinnability engine's reasons
    **REASONS,
}

#: How material is written ("K+B v K"): the letters of king, queen, rook,
#: bishop, knight and pawn, and the two sides, in each language's notation.
NOTATION: dict[str, str] = {
    "notation.pieces": "K Q R B N P",
    "notation.versus": "{white} v {black}",
}

#: The words for each way a game ends (the ``termination`` parameter holds its id).
TERMINATION_WORDS: dict[str, str] = {
    f"termination.{key}": words for key, words in TERMINATIONS.items()}
