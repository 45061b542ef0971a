"""The sentences of the unwinnability engine's reasons ("can this side still
checkmate?"), as English templates keyed by a stable id.

A ruling quotes the engine's reason as a parameter (``dead_position``,
``flag_fall_*``), and ``/v1/position`` sends it per side.  The catalogues
translate a reason by matching it against these templates
(:func:`remis.i18n.translate_param`): a reason is translated exactly when it
is one of these templates filled in, its slots (``{player}``, ``{n}``,
``{moves}`` as UCI, ``{squares}``, ``{material}``, a nested ``{reason}``)
included.  :mod:`remis.unwinnable` writes every reason from this table
(``REASONS[id].format(...)``), so its English cannot drift from the
catalogues.

Slots in braces that are optional parts of a sentence (``{after}``,
``{pawns}``, ``{example}``) hold either nothing or the text of the template
named in :data:`OPTIONAL`.

>>> REASONS["param.material_bare"].format(player="Black", material="K+Q v K")
'insufficient material: Black has a bare king (K+Q v K)'
"""

from __future__ import annotations

REASONS: dict[str, str] = {
    # material alone decides (the core's material.rs)
    "param.material_bare": "insufficient material: {player} has a bare king ({material})",
    "param.material_never": "insufficient material: {player} can never checkmate ({material})",
    "param.material_promotion": "insufficient material: {player} could only mate after an "
    "opponent's promotion, and the opponent has no pawns ({material})",
    # a dead position: both sides' reasons, White's first
    "param.side_reasons": "White: {white}; Black: {black}",
    # a helpmate found (its length, not always the shortest)
    "param.helpmate_plies": "{player} can mate: a helpmate of {n} plies",
    "param.helpmate_ply": "{player} can mate: a helpmate of 1 ply",
    "param.already_mated": "{player} has already mated",
    # the game is over on the board, or the only legal moves end it
    "param.position_stalemate": "the position is a stalemate: no legal move",
    "param.position_mated": "the position is a checkmate of {player}: no legal move",
    "param.forced_stalemate": "forced sequence: every legal continuation ends in stalemate "
    "after {n} forced plies ({moves})",
    "param.forced_stalemate_ply": "forced sequence: every legal continuation ends in stalemate "
    "after 1 forced ply ({moves})",
    "param.forced_mated": "forced sequence: every legal continuation ends in checkmate of "
    "{player} after {n} forced plies ({moves})",
    "param.forced_mated_ply": "forced sequence: every legal continuation ends in checkmate of "
    "{player} after 1 forced ply ({moves})",
    "param.forced_cycle": "forced sequence: the forced moves come back to a position after "
    "{n} forced plies ({moves}), so they go on for ever",
    "param.forced_material": "forced sequence {moves} leads to {reason}",
    "param.after_forced": " after the forced moves {moves}",
    "param.forced_then": "after the forced moves {moves}, {reason}",
    # no answer within the limits (a search's own, or a request's budget)
    "param.undecided_limit": "undecided: {limit} reached ({n} nodes)",
    "param.undecided_limit_one": "undecided: {limit} reached (1 node)",
    "param.limit_quick": "quick mode",
    "param.limit_nodes": "node limit",
    "param.limit_time": "time limit",
    "param.limit_interrupt": "interrupt",
    "param.budget_nodes": "undecided: the request's node budget ({n}) is spent",
    "param.budget_seconds": "undecided: the request's time budget ({seconds} s) is spent",
    # searches that visited every line or every reachable position
    "param.lines_moves": "exhausted search: every legal move of {player}{after} {how} ({ends})",
    "param.lines_plies": "exhausted search: every line of at most {n} plies{after} {how} "
    "({ends})",
    "param.lines_end": "ends the game",
    "param.lines_material": "leaves {player} without mating material",
    "param.lines_either": "ends the game or leaves {player} without mating material",
    "param.ends_one": "1 end",
    "param.ends_n": "{n} ends",
    "param.exhausted_search": "exhausted search: no checkmate by {player} is reachable{after} "
    "({n} positions searched)",
    # the static proof of a blocked structure (the core's blocked.rs)
    "param.blocked_static": "blocked structure (static){after}: {reason}",
    "param.blocked_white": "blocked position: no White piece can ever attack a square the "
    "black king can reach{pawns}",
    "param.blocked_black": "blocked position: no Black piece can ever attack a square the "
    "white king can reach{pawns}",
    "param.shade_white_dark": "White can only ever check with bishops on dark squares, and the "
    "black king always keeps a flight square of the other colour{pawns}",
    "param.shade_white_light": "White can only ever check with bishops on light squares, and "
    "the black king always keeps a flight square of the other colour{pawns}",
    "param.shade_black_dark": "Black can only ever check with bishops on dark squares, and the "
    "white king always keeps a flight square of the other colour{pawns}",
    "param.shade_black_light": "Black can only ever check with bishops on light squares, and "
    "the white king always keeps a flight square of the other colour{pawns}",
    "param.flight_white": "wherever White could give check, the black king always keeps a "
    "flight square that no White piece can ever guard and Black cannot fill{pawns}",
    "param.flight_black": "wherever Black could give check, the white king always keeps a "
    "flight square that no Black piece can ever guard and White cannot fill{pawns}",
    "param.frozen_pawns": " (the pawns on {squares} can never move)",
    "param.boxed_white": "the white king is boxed in on {squares}: the other king can never "
    "come next to it without ending the game",
    "param.boxed_black": "the black king is boxed in on {squares}: the other king can never "
    "come next to it without ending the game",
    # the static proof after every legal move (and the forced replies)
    "param.every_move_blocked": "blocked structure (static) after every legal move, e.g. "
    "{moves}: {reason}",
    "param.every_move": "every legal move ends the game or leads, through forced replies, to a "
    "position where {player} cannot mate: {counts}{example}",
    "param.every_move_example": " (e.g. {moves}: {reason})",
    "param.to_stalemate": "{n} to stalemate",
    "param.to_mated": "{n} to a checkmate of {player}",
    "param.to_material": "{n} to too little material",
    "param.to_cycle": "{n} to a cycle of forced moves",
    "param.to_blocked": "{n} to a blocked structure",
}

#: Optional slots: the template each holds when it holds anything.
OPTIONAL: dict[str, str] = {"after": "param.after_forced", "pawns": "param.frozen_pawns",
                            "example": "param.every_move_example"}
