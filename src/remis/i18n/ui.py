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
from remis.variants.messages import NO_CHASE_NOTE

UI: dict[str, str] = {
    "ui.language": "Language",
    "ui.tab_play": "Play",
    "ui.tab_analyse": "Analyse",
    "ui.new_game": "New game",
    "ui.time_control": "Time control",
    "ui.mode": "Where the game is played",
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
    "ui.illegal_moves": "Illegal moves: White {white}, Black {black}",
    "ui.analyse_input": "Paste a FEN or a PGN",
    "ui.analyse": "Analyse",
    "ui.no_end": "No automatic end: the game goes on.",
    "ui.claims_per_ply": "Claimable draws, ply by ply",
    "ui.player": "Player",
    "ui.move": "Move",
    "ui.explanation": "Explanation",
    "ui.play_line": "Play the line on the board",
    "ui.flag_heading": "If a flag falls (Article 6.9): can the opponent still checkmate?",
    "ui.flag_of": "{player}'s flag falls:",
    "ui.can_mate": "{player} can still checkmate.",
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
    "ui.no_clock": "no clock",
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
    # the new-game form
    "ui.page_title": "remis: chess games ended as a FIDE arbiter would",
    "ui.sections": "Sections",
    "ui.presets": "Common time controls",
    "ui.tc_label": "As players write it: minutes + seconds a move (3+2, 90+30, 1/2+0), "
    "moves/minutes for a period (40/90, 30+30)",
    "ui.periods": "Periods, one per row",
    "ui.period_moves": "Moves (empty: the rest of the game)",
    "ui.period_minutes": "Minutes",
    "ui.period_increment": "Seconds added a move",
    "ui.period_remove_column": "Remove",
    "ui.period_add": "Add a period",
    "ui.period_moves_label": "Moves of period {n}",
    "ui.period_minutes_label": "Minutes of period {n}",
    "ui.period_increment_label": "Seconds added a move in period {n}",
    "ui.period_remove": "Remove period {n}",
    "ui.supervision": "Supervision",
    "ui.supervision_full": "full (Appendix A.4, B.2)",
    "ui.supervision_partial": "partial (Appendix A.5, B.3)",
    "ui.names": "Players' names (optional)",
    "ui.first_move_rule": "Until both players have moved, either may cancel the game, and a "
    "player who makes no first move within {seconds} s of their clock starting cancels it: no "
    "result. After that, a player whose time runs out loses on time (Article 6.9).",
    "ui.first_move_due": "{player} must make a first move within {time}, or the game is "
    "cancelled without a result.",
    # playing
    "ui.abort": "Cancel the game",
    "ui.cancelled": "Game cancelled",
    "ui.board_label": "Chess board",
    "ui.board_position": "{player} to move; last move: {move}.",
    "ui.analysis_board": "The position analysed",
    "ui.move_input": "Your move (e.g. e4, Nf3, O-O), then Enter",
    "ui.not_your_move": "It is not your move: the opponent is to move.",
    "ui.typed_unknown": "“{text}” is not a legal move here.",
    "ui.touched_binds": "The piece touched on {square} must be moved, or captured, while that "
    "is possible (Article 4.3).",
    "ui.touch_mode_on": "Click the piece that was touched (Article 4.3).",
    "ui.clock_of": "{player}'s clock: {time}",
    "ui.announce_move": "{player} played {move}.",
    "ui.announce_low_time": "{seconds} seconds left.",
    "ui.nav_first": "Start",
    "ui.nav_prev": "Previous move",
    "ui.nav_next": "Next move",
    "ui.nav_last": "Last move",
    "ui.moves_heading": "Moves",
    "ui.rematch": "Rematch",
    "ui.rematch_join": "Join the rematch",
    "ui.rematch_started": "A rematch has started: colours swapped, the same time control.",
    "ui.call_arbiter": "Call the arbiter",
    "ui.request_kind": "About",
    "ui.request_fair_play": "the opponent's fair play",
    "ui.request_time": "time after a disturbance, such as a lost connection",
    "ui.request_other": "something else",
    "ui.request_comment": "What happened (optional)",
    "ui.request_send": "Send to the arbiter",
    "ui.request_waiting": "Your request is with the arbiter; the game goes on meanwhile.",
    "ui.request_from": "{player} calls the arbiter about: {kind}.",
    "ui.request_uphold": "Uphold the request",
    "ui.request_reject": "Reject the request",
    # the arbiter's own acts
    "ui.add_time": "Add time",
    "ui.add_time_player": "To",
    "ui.add_time_seconds": "Seconds",
    "ui.add_time_kind": "Why",
    "ui.add_time_disturbance": "a disturbance, such as a lost connection (12.5)",
    "ui.add_time_penalty": "a penalty on the opponent (12.9.2)",
    "ui.add_time_correction": "a clock set wrongly (6.10)",
    "ui.add_time_go": "Add the time",
    "ui.declare": "Declare a result",
    "ui.declare_result": "Result",
    "ui.declare_kind": "Why",
    "ui.declare_fair_play": "a breach of fair play (12.9.6)",
    "ui.declare_conduct": "misconduct (12.9.6)",
    "ui.declare_other": "another reason (12.2.2)",
    "ui.declare_comment": "The reason in words (optional)",
    "ui.declare_go": "Declare the result",
    "ui.declare_confirm": "Declare? Click again",
    "ui.note": "Write a note in the log",
    "ui.note_text": "Note",
    "ui.note_go": "Write it",
    # the analysis panel
    "ui.game_pick": "Game",
    "ui.helpmate_line_short": "A helpmate exists; step through it on the board:",
    "ui.line_start": "Start of the line",
    "ui.cannot_mate_short": "{player} cannot checkmate by any series of legal moves.",
    "ui.mate_unknown_short": "Not decided whether {player} can checkmate.",
    # refusals, by the code of the service's error (remis.service.problem)
    "err.not_on_move": "Not done: it is {player}'s move now; the page was behind and now shows "
    "the game as it is.",
    "err.stale_ply": "Not played: the game had moved on since this page last looked. The board "
    "now shows the current position.",
    "err.illegal_move": "{move} is not a legal move here.",
    "err.written_move": "First play the move written with your claim, {move} (Article 9.5.3).",
    "err.touched_piece": "The piece touched on {square} must be moved, or captured, while that "
    "is possible (Article {article}).",
    "err.game_over": "Not done: the game is already over.",
    "err.awaiting_arbiter": "Not done: the clocks are stopped until the arbiter decides.",
    "err.draw_offer_pending": "Not done: {player}'s draw offer is already on the table.",
    "err.no_draw_offer": "Not done: there is no draw offer any more; a move or a decline ended "
    "it.",
    "err.draw_too_early": "A draw can be agreed only after both players have moved (Article "
    "5.2.3).",
    "err.draw_barred": "The event's rules allow draw offers only with the arbiter's consent "
    "(Article 9.1.1).",
    "err.claim_incorrect": "The claim under Article {article} is not correct, so the server "
    "refuses it: the game goes on, no time is added and no draw is offered.",
    "err.claim_after_touch": "After touching a piece you cannot claim on this move (Article "
    "9.4).",
    "err.flag_not_fallen": "{player}'s flag has not fallen yet.",
    "err.flag_fallen": "{player}'s flag has already fallen: no time can be added.",
    "err.no_clock": "This game has no clock.",
    "err.abort_too_late": "Both players have moved: the game can no longer be cancelled.",
    "err.abort_not_allowed": "This game cannot be cancelled.",
    "err.request_open": "Your request to the arbiter is still open.",
    "err.add_time_incomplete": "Say whose clock gets the time and how many seconds.",
    "err.declare_needs_winner": "A game lost for a breach of fair play or for misconduct has a "
    "winner: choose 1-0 or 0-1 (Article 12.9.6).",
    "err.note_empty": "Write the note first.",
    "err.decision_not_allowed": "A request to the arbiter is upheld or rejected.",
    "err.event_limit": "Too many actions without a move: the next one must be a move.",
    "err.event_id_reused": "This action was sent before; reload the page.",
    "err.role_forbidden": "This page's link does not allow that.",
    "err.game_not_over": "A rematch starts after the end of the game.",
    "err.config": "These settings cannot make a game; check them and try again.",
    "err.config.start_fen": "The start position cannot be used: {reason}.",
    "err.config.players": "A player's name may have at most {max} characters.",
    "err.invalid_request": "The page sent something the server could not read. Reload the page.",
    "err.body_too_large": "This is too long for the server.",
    "err.event_refused": "The arbiter does not accept this in the game's present state.",
    "err.internal_error": "Something went wrong on the server; it has been logged. Try again.",
    "err.generic": "The server refused this.",
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
