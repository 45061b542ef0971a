"""The audit's checks: one function per kind of finding, each a question about
one replayed game that returns a :class:`Finding` or None.

The rules are never decided here: the core (``remis._core.GameReader``)
reads and replays each game and finds its first automatic end, and
:func:`remis.unwinnable.can_checkmate` answers "can this side still mate?"
in the final position.  A check only compares what the record
says with what the Laws say, and only reports what is proved:

* ``time_forfeit`` (6.9): a loss on time against a player who cannot mate
  (verdict False), or a time forfeit scored as a draw although the player
  with time left can mate (verdict True); never on an undecided verdict;
* ``moves_after_end``: the record goes on after an automatic end
  (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2), which fixed the result;
* ``result_after_end``: the game ended by 9.6.1 or 9.6.2 on its last recorded
  move and the recorded result differs;
* ``result_vs_position``: the final position contradicts the result: a mate,
  stalemate or dead position (5.1.1, 5.2.1, 5.2.2) scored otherwise, or a win
  for a player who cannot mate (5.1.2 since 2023; not a time forfeit);
* ``illegal_move``: an illegal or unreadable move in the record (7.5, 8.1).

A game gets at most one finding: the checks are exclusive by construction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import chess

from remis import _core
from remis import facts as F
from remis.laws import CURRENT, Laws
from remis.material import describe_material
from remis.pgn import GameText, ParsedGame
from remis.ruling import DRAW, Ruling, move_label, win_for
from remis.unwinnable import Verdict, can_checkmate
from remis.unwinnable.moves import pseudo_legal_count
from remis.unwinnable.probe import helpmate_probe

#: how the audit has the core read and replay its games: no claims, the first
#: automatic end with dead positions found by the engine's quick mode after
#: every ply (material, static proofs of locked structures, tiny searches),
#: the final position's FEN and the game's text (to rule on it again where
#: the Laws in force or a finding ask for it)
READ: dict[str, Any] = {"claims": "none", "dead": "quick", "last_position": False,
                        "time_forfeit": False, "fens": True}

#: a game as the core's reader cuts it out (``remis._core.GameSplitter``):
#: index, offset, text, unclosed_comment, tags_only, too_long
Game = tuple[int, int, bytes, bool, "int | None", bool]


def rule(game: Game, **options: Any) -> tuple[Any, ...]:
    """The core's facts on one game cut out by its reader, with ``options``
    (by default :data:`READ`).

    >>> rule((1, 0, b"1. f3 e5 2. g4 Qh4# 0-1", False, None, False))[5][1]
    'checkmate'
    """
    index, offset, text, unclosed_comment, tags_only, too_long = game
    return _core.rule_text(text, index=index, offset=offset, unclosed_comment=unclosed_comment,
                           tags_only=tags_only, too_long=too_long, **(options or READ))

#: node budget of one full "can this side still mate?" search in the audit.
#: A node budget, not a time limit: the same game gives the same findings on
#: any machine, under any load, locally or on a cluster.  A search that runs
#: out of it is *undecided*, and an undecided verdict is never a finding (the
#: recorded result stands; the game is counted under ``undecided`` in the
#: summary), so the budget only costs completeness, never soundness.
VERDICT_NODES = 20_000
#: node budget of the helpmate probe tried before a full-mode search whose
#: only possible finding is a "cannot mate" (a probe that finds no mate adds
#: at most this much to the full mode's cost)
PROBE_NODES = 20_000
#: the "cannot mate" search after quick mode is skipped where the side to
#: move has more than this many legal moves and the would-be winner has a
#: queen or a rook, or more than GATE_WINNER_MOVES moves of its own, and no
#: static proof (see :func:`_may_be_unable_to_mate`)
GATE_MOVES = 10
GATE_WINNER_MOVES = 12
#: nodes within which full mode must prove "cannot mate" before a
#: resignation's final position with a queen or a rook is searched further (a
#: node budget: the same game gives the same findings anywhere)
GATE_VISIT = 32


def decide_can_mate(board: chess.Board, color: chess.Color, finding_if: bool, *,
                    quick: Verdict | None = None) -> Verdict:
    """Whether ``color`` can still checkmate, computed only as far as a
    finding depends on it: quick mode first (material, forced moves, small or
    locked positions), then, where quick mode is undecided, the full mode
    within :data:`VERDICT_NODES` (after a helpmate probe when only a "cannot"
    is a finding: see :func:`settle_can_mate`).  When the answer is
    ``finding_if`` (a finding) the verdict given is that of the full mode, so
    that the evidence does not depend on which stage decided first.
    ``quick`` is quick mode's verdict, when the caller has it already.

    >>> v = decide_can_mate(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK, False)
    >>> v.value, v.method
    (False, 'material')
    >>> decide_can_mate(chess.Board(), chess.WHITE, False).value
    True
    """
    v = can_checkmate(board, color, mode="quick") if quick is None else quick
    if v.value is None:
        if finding_if is False:
            return settle_can_mate(board, color)
        return can_checkmate(board, color, mode="full", max_nodes=VERDICT_NODES)
    if v.value is finding_if and v.method != "material":
        full = can_checkmate(board, color, mode="full", max_nodes=VERDICT_NODES)
        if full.value is v.value:
            return full
    return v


def settle_can_mate(board: chess.Board, color: chess.Color) -> Verdict:
    """The verdict where only a "cannot" would be a finding: the helpmate
    probe first (the steered search alone within :data:`PROBE_NODES`: a mate
    it finds, with its line, settles it at a fraction of the full mode's
    cost), the full mode within :data:`VERDICT_NODES` when it finds none, so
    every "cannot" is the full mode's proof.  A found mate is checked on the
    board, so the probe never contradicts a sound "cannot": it can only
    answer "can mate" where the full mode says so too or is undecided, and
    the findings are those of the full mode alone.

    >>> v = settle_can_mate(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK)
    >>> v.value, len(v.line) > 0
    (True, True)
    >>> settle_can_mate(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
    ...                 chess.WHITE).method
    'static'
    """
    probe = helpmate_probe(board, color, max_nodes=PROBE_NODES)
    if probe is not None:
        return probe
    return can_checkmate(board, color, mode="full", max_nodes=VERDICT_NODES)


def _may_be_unable_to_mate(board: chess.Board, color: chess.Color, *,
                           resignation: bool = False) -> bool:
    """Whether a full search for "``color`` cannot mate" is worth its cost
    after quick mode left it open.  Skipping it only costs completeness (a
    finding needs a proof); it is skipped where a "cannot" is practically
    never proved: the game can go many ways (the side to move has more than
    :data:`GATE_MOVES` legal moves) and ``color`` either has a queen or a
    rook, or has more than :data:`GATE_WINNER_MOVES` moves of its own (quick
    mode, which the callers ran first, has tried the static proof of a
    blocked structure already).  Quick mode proves every one of the 88,387
    lichess losses on time that should have been draws
    (``lichess-unfair-timeouts.txt``); the 43 that the Python engine's quick
    mode left open all passed this test.

    For a resignation (``resignation=True``: a finding is rare there, and
    resignations are many) where ``color`` has a queen or a rook, full mode
    must also prove "cannot mate" within :data:`GATE_VISIT` nodes.

    >>> _may_be_unable_to_mate(chess.Board(), chess.WHITE)
    False
    >>> _may_be_unable_to_mate(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
    ...                        chess.WHITE)
    True
    >>> b = chess.Board("8/6kp/8/7P/8/5q1r/8/6K1 w - - 11 67")  # 1.h6+, any reply stalemates
    >>> _may_be_unable_to_mate(b, chess.BLACK), _may_be_unable_to_mate(b, chess.BLACK,
    ...                                                                resignation=True)
    (True, True)
    """
    heavy = bool((board.queens | board.rooks) & board.occupied_co[color])
    if board.legal_moves.count() <= GATE_MOVES:
        return (not heavy or not resignation
                or can_checkmate(board, color, max_nodes=GATE_VISIT).value is False)
    return not heavy and pseudo_legal_count(board, color) <= GATE_WINNER_MOVES


#: the checks, in the order they are tried on a game
CHECKS = ("moves_after_end", "illegal_move", "result_after_end", "result_vs_position",
          "time_forfeit")

#: the headers that identify a game in a finding
IDENT_HEADERS = ("Site", "Event", "White", "Black", "Date", "Round")

RESULTS = ("1-0", "0-1", DRAW)

_PIECE_POINTS = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
_TC = re.compile(r"^\s*(\d+)(?:\+(\d+))?")


@dataclass
class Finding:
    """One wrongly scored (or wrongly recorded) game.

    ``game`` is the 1-based index of the game in ``file``, ``offset`` the byte
    where it starts (in the decompressed stream for compressed files).

    >>> f = Finding("time_forfeit", 3, 120, {"White": "a"}, "1-0", "Time forfeit",
    ...             "1/2-1/2", "6.9", 40, {}, "x", "FIDE Laws of Chess 2023 (current)")
    >>> f.to_json()["result_under_laws"]
    '1/2-1/2'
    """

    check: str
    game: int
    offset: int
    headers: dict[str, str]
    recorded_result: str
    termination: str | None
    result_under_laws: str | None
    article: str
    ply: int
    evidence: dict[str, Any]
    explanation: str
    laws: str
    file: str = ""
    time_control: str = "unknown"

    def to_json(self) -> dict[str, Any]:
        """The JSON object of one finding (one line of ``--format jsonl``).

        >>> from remis.pgn import GameText, parse_game
        >>> g = parse_game(GameText(1, 0, '[Result "1/2-1/2"]\\n\\n1. f3 e5 2. g4 Qh4#\\n'))
        >>> f = audit_game(audit_replay(g))
        >>> f.to_json()["check"], f.to_json()["result_under_laws"]
        ('result_vs_position', '0-1')
        """
        return {
            "check": self.check,
            "file": self.file,
            "game": self.game,
            "offset": self.offset,
            "headers": self.headers,
            "recorded_result": self.recorded_result,
            "termination": self.termination,
            "result_under_laws": self.result_under_laws,
            "article": self.article,
            "ply": self.ply,
            "evidence": self.evidence,
            "explanation": self.explanation,
            "laws": self.laws,
            "time_control": self.time_control,
        }


@dataclass
class AuditedGame:
    """What the checks look at: one game as the core read and replayed it
    under the Laws that apply (its first automatic end, the plies replayed,
    the first unreadable or illegal move, the final position), and the few
    facts of the record every check needs."""

    index: int
    offset: int
    headers: dict[str, str]
    variant: str
    laws: Laws
    #: the first automatic end under the Laws applied, or None
    end: Ruling | None
    #: the number of plies replayed
    plies: int
    #: the first unreadable or illegal move (ply, message), or None
    error: tuple[int, str] | None
    result: str
    termination: str | None
    time_control: str
    #: the FEN of the final replayed position (None for a game that cannot be replayed)
    fen: str | None
    #: the game as the reader cut it out, to rule on it again
    game: Game
    extra: dict[str, Any] = field(default_factory=dict)
    _board: chess.Board | None = field(default=None, repr=False)

    @property
    def board(self) -> chess.Board | None:
        """The final replayed position.

        >>> from remis.pgn import GameText, parse_game
        >>> a = audit_replay(parse_game(GameText(1, 0, '[Result "*"]\\n\\n1. e4 e5 *\\n')))
        >>> a.board.fen()
        'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
        """
        if self._board is None and self.fen is not None:
            self._board = chess.Board(self.fen, chess960=self.variant == "chess960")
        return self._board


def audit_facts(f: tuple[Any, ...], laws: Laws, game: Game | None = None) -> AuditedGame:
    """The :class:`AuditedGame` of one game from the core's facts (read with
    :data:`READ`; ``game`` is the game they are about, by default the one the
    reader handed over with them), judged by ``laws``: before July 2014 a
    fivefold repetition or 75 moves ended nothing, so a game whose first end
    is one of those is ruled on again without them.

    >>> game = (1, 0, b'[Result "0-1"]\\n\\n1. f3 e5 2. g4 Qh4# 0-1\\n', False, None, False)
    >>> a = audit_facts(rule(game), CURRENT, game)
    >>> a.end.article, a.result, a.plies
    ('5.1.1', '0-1', 4)
    """
    game = f[13] if game is None else game
    end = f[5]
    if end is not None and end[2].startswith("9.6") and not laws.automatic_repetition:
        f = rule(game, **READ, rule="position")
        end = f[5]
    h: dict[str, str] = f[2]
    err = None if f[7] is None else (f[7][0], f[7][1])
    ruling = None if end is None else F.ruling(end, F.where(f[16]))
    return AuditedGame(f[0], f[1], h, f[3], laws, ruling, f[4], err,
                       h.get("Result", "*").strip(), h.get("Termination"),
                       time_control_class(h), f[10], game)


def time_control_class(headers: dict[str, str]) -> str:
    """FIDE class of the game's time control from ``TimeControl`` (base +
    60 x increment, Appendices A and B) or, failing that, the ``Event`` name:
    ``bullet`` (under 3 minutes, a kind of blitz), ``blitz``, ``rapid``,
    ``standard``, ``correspondence`` or ``unknown``.

    >>> [time_control_class({"TimeControl": t}) for t in ("60+0", "180+2", "900+10", "5400+30")]
    ['bullet', 'blitz', 'rapid', 'standard']
    >>> time_control_class({"Event": "Rated Blitz game"}), time_control_class({})
    ('blitz', 'unknown')
    """
    tc = headers.get("TimeControl", "")
    if tc.startswith("-"):
        return "correspondence"
    m = _TC.match(tc)
    if m:
        total = int(m.group(1)) + 60 * int(m.group(2) or 0)
        if total < 180:
            return "bullet"
        if total <= 600:
            return "blitz"
        if total < 3600:
            return "rapid"
        return "standard"
    event = headers.get("Event", "").lower()
    for word in ("bullet", "blitz", "rapid", "classical", "correspondence"):
        if word in event:
            return "standard" if word == "classical" else word
    return "unknown"


def rating_band(headers: dict[str, str]) -> str:
    """The 200-point band of the players' mean rating, or ``unrated``.

    >>> rating_band({"WhiteElo": "1500", "BlackElo": "1720"}), rating_band({"WhiteElo": "?"})
    ('1600-1799', 'unrated')
    """
    vals = [int(v) for k in ("WhiteElo", "BlackElo")
            if (v := headers.get(k, "").strip()).isdigit() and int(v) > 0]
    if not vals:
        return "unrated"
    lo = (sum(vals) // len(vals)) // 200 * 200
    return f"{lo}-{lo + 199}"


def material_points(board: chess.Board, color: chess.Color) -> int:
    """Material of ``color`` in pawn units (P 1, N 3, B 3, R 5, Q 9).

    >>> material_points(chess.Board(), chess.WHITE)
    39
    """
    return sum(pts * chess.popcount(board.pieces_mask(p, color))
               for p, pts in _PIECE_POINTS.items())


def is_time_forfeit(termination: str | None) -> bool:
    """True when the ``Termination`` tag says the game was lost on time.

    >>> is_time_forfeit("Time forfeit"), is_time_forfeit("Normal"), is_time_forfeit(None)
    (True, False, False)
    """
    return termination is not None and "time" in termination.lower()


def audit_replay(g: ParsedGame | GameText, laws: Laws = CURRENT) -> AuditedGame:
    """Read and replay one game under ``laws`` as the audit does (no claims:
    the audit only needs the first automatic end; dead positions found by
    the engine's quick mode after every ply) and gather the facts the checks
    use.

    >>> from remis.pgn import GameText, parse_game
    >>> g = parse_game(GameText(1, 0, '[Result "1/2-1/2"]\\n\\n1. f3 e5 2. g4 Qh4#\\n'))
    >>> a = audit_replay(g)
    >>> a.end.article, a.result, a.plies
    ('5.1.1', '1/2-1/2', 4)
    """
    text, flags = (g.encoded(), g.flags()) if isinstance(g, GameText) else (g.text, g.flags)
    game: Game = (g.index, g.offset, text, flags.get("unclosed_comment", False),
                  flags.get("tags_only"), flags.get("too_long", False))
    return audit_facts(rule(game), laws, game)


def _finding(a: AuditedGame, check: str, result: str | None, article: str, ply: int,
             evidence: dict[str, Any], explanation: str) -> Finding:
    ident = {k: a.headers[k] for k in IDENT_HEADERS if k in a.headers}
    return Finding(check, a.index, a.offset, ident, a.result, a.termination, result, article,
                   ply, evidence, explanation, a.laws.label, time_control=a.time_control)


def _error(a: AuditedGame) -> tuple[int, str] | None:
    return a.error


def _verdict_json(v: Verdict) -> dict[str, Any]:
    out = v.to_json()
    out["color"] = "white" if v.color else "black"
    return out


def _title(color: chess.Color) -> str:
    return "White" if color else "Black"


# ---------------------------------------------------------------- the checks
def check_moves_after_end(a: AuditedGame) -> Finding | None:
    """The record goes on after the game had already ended automatically.

    >>> from remis.pgn import GameText, parse_game
    >>> text = '[Result "1-0"]\\n\\n' + "1. Nf3 Nf6 2. Ng1 Ng8 " * 4 + "5. e4 1-0\\n"
    >>> f = check_moves_after_end(audit_replay(parse_game(GameText(1, 0, text))))
    >>> f.article, f.ply, f.evidence["recorded_plies"], f.result_under_laws
    ('9.6.1', 16, 17, '1/2-1/2')
    """
    end = a.end
    if end is None:
        return None
    err = _error(a)
    recorded = a.plies + (1 if err is not None else 0)
    if end.ply >= a.plies and err is None:
        return None
    evidence: dict[str, Any] = {"end": end.to_json(), "recorded_plies": recorded,
                                "plies_involved": list(end.plies)}
    if err is not None:
        evidence["later_record_error"] = {"ply": err[0], "message": err[1]}
    differs = a.result in RESULTS and a.result != end.result
    tail = (f" The recorded result {a.result} differs from {end.result}." if differs else
            " The recorded result stands, but the moves after the end are not part of the game.")
    text = (f"The game ended {_when(a, end.ply)}: {end.explanation} The record goes on "
            f"to {_move(a, recorded)} (ply {recorded}).{tail}")
    return _finding(a, "moves_after_end", end.result, end.article, end.ply, evidence, text)


def _move(a: AuditedGame, ply: int) -> str:
    """Ply ``ply`` of the game as players write the move ("29.", "29…"; the
    findings' ``ply`` fields keep the count), or "ply N" where the game
    cannot be replayed.

    >>> from remis.pgn import GameText, parse_game
    >>> a = audit_replay(parse_game(GameText(1, 0, "1. e4 e5 2. Nf3 *\\n")))
    >>> _move(a, 3), _when(a, 4)
    ('2.', 'after 2…')
    """
    board = a.board
    return f"ply {ply}" if board is None else move_label(ply, board, a.plies)


def _when(a: AuditedGame, ply: int) -> str:
    """The position after ply ``ply``, as players say it."""
    return "at the start" if ply == 0 else f"after {_move(a, ply)}"


def check_illegal_move(a: AuditedGame) -> Finding | None:
    """An illegal or unreadable move (or an unplayable game) in the record.

    >>> from remis.pgn import GameText, parse_game
    >>> g = parse_game(GameText(2, 50, '[Result "1-0"]\\n\\n1. e4 e5 2. Ke3 1-0\\n'))
    >>> f = check_illegal_move(audit_replay(g))
    >>> f.game, f.ply, f.article
    (2, 3, '7.5')
    """
    err = _error(a)
    if err is None:
        return None
    ply, message = err
    if a.variant not in ("standard", "chess960"):
        return None  # another game, not an error: counted as skipped
    illegal = "illegal" in message.lower()
    article = "7.5" if illegal else "8.1"
    what = "an illegal move" if illegal else "a move that cannot be read"
    evidence: dict[str, Any] = {"message": message, "replayed_plies": a.plies}
    board = a.board
    if board is not None:
        evidence["fen_before"] = board.fen()
    if ply > 0:
        text = (f"The record has {what} at {_move(a, ply)} ({message}); "
                "the game cannot be replayed past it.")
    else:
        text = f"The game cannot be replayed at all ({message})."
    if illegal and a.time_control in ("bullet", "blitz", "rapid"):
        if a.laws.rapid_blitz_first_illegal_loses:
            evidence["rule_in_force"] = ("rapid/blitz before 2018: a completed illegal move "
                                         "loses the game (old A.4.2)")
        else:
            evidence["rule_in_force"] = ("rapid/blitz since 2018: a first completed illegal "
                                         "move costs time; the second loses (A.5.2, 7.5.5)")
    return _finding(a, "illegal_move", None, article, ply, evidence, text)


def check_result_after_end(a: AuditedGame) -> Finding | None:
    """A 9.6.1/9.6.2 end on the last recorded move, scored otherwise.

    >>> from remis.pgn import GameText, parse_game
    >>> text = '[Result "0-1"]\\n\\n' + "1. Nf3 Nf6 2. Ng1 Ng8 " * 4 + "0-1\\n"
    >>> check_result_after_end(audit_replay(parse_game(GameText(1, 0, text)))).article
    '9.6.1'
    """
    end = a.end
    if (end is None or _error(a) is not None or end.ply < a.plies
            or end.article not in ("9.6.1", "9.6.2") or a.result not in RESULTS
            or a.result == end.result):
        return None
    text = f"{end.explanation} The recorded result {a.result} should be {end.result}."
    return _finding(a, "result_after_end", end.result, end.article, end.ply,
                    {"end": end.to_json(), "plies_involved": list(end.plies)}, text)


def check_result_vs_position(a: AuditedGame) -> Finding | None:
    """The final position contradicts the recorded result: a mate, stalemate
    or dead position scored otherwise, or (under the Laws since 2023, not on
    time) a win for a player who cannot checkmate.

    >>> from remis.pgn import GameText, parse_game
    >>> g = parse_game(GameText(1, 0, '[Result "1/2-1/2"]\\n\\n1. f3 e5 2. g4 Qh4# 1/2-1/2\\n'))
    >>> f = check_result_vs_position(audit_replay(g))
    >>> f.article, f.result_under_laws
    ('5.1.1', '0-1')
    """
    if _error(a) is not None or a.result not in RESULTS:
        return None
    end = a.end
    board = a.board
    if end is not None:
        if end.ply < a.plies or end.article not in ("5.1.1", "5.2.1", "5.2.2"):
            return None
        if a.result == end.result:
            return None
        text = (f"The final position ({_when(a, end.ply)}) ends the game: {end.explanation} "
                f"The recorded result {a.result} should be {end.result}.")
        ev = {"end": end.to_json(), "fen": board.fen() if board is not None else None}
        return _finding(a, "result_vs_position", end.result, end.article, end.ply, ev, text)
    if board is None or a.result == DRAW or is_time_forfeit(a.termination):
        return None
    if not a.laws.resignation_draw:
        return None
    winner = chess.WHITE if a.result == "1-0" else chess.BLACK
    v = can_checkmate(board, winner, mode="quick")
    if v.value is None and _may_be_unable_to_mate(board, winner, resignation=True):
        v = settle_can_mate(board, winner)
        if v.value is None:
            a.extra["undecided"] = "result_vs_position"
    if v.value is not False:
        return None
    text = (f"{a.result} is recorded, but in the final position {_title(winner)} cannot "
            f"checkmate by any series of legal moves ({v.reason}). Under the Laws a game "
            f"a player cannot win that way is drawn: resignation (5.1.2), loss on time (6.9), "
            f"second illegal move (7.5.5).")
    ev = {"verdict": _verdict_json(v), "fen": board.fen(), "material": describe_material(board)}
    return _finding(a, "result_vs_position", DRAW, "5.1.2", a.plies, ev, text)


def check_time_forfeit(a: AuditedGame) -> Finding | None:
    """6.9: a time forfeit scored against what the Laws say.  The player who
    flagged is the loser of a decisive result, or the player to move in the
    final position of a drawn one.

    >>> from remis.pgn import GameText, parse_game
    >>> pgn = ('[Result "0-1"]\\n[Termination "Time forfeit"]\\n'
    ...        '[FEN "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"]\\n[SetUp "1"]\\n\\n0-1\\n')
    >>> f = check_time_forfeit(audit_replay(parse_game(GameText(1, 0, pgn))))
    >>> f.result_under_laws, f.evidence["verdict"]["value"]
    ('1/2-1/2', False)
    """
    if (not is_time_forfeit(a.termination) or a.end is not None or _error(a) is not None
            or a.result not in RESULTS):
        return None
    board = a.board
    if board is None:
        return None
    if a.result == DRAW:
        flagged = board.turn
        how = "the player to move, whose clock was running"
    else:
        flagged = chess.BLACK if a.result == "1-0" else chess.WHITE
        how = "the loser"
    other = not flagged
    # a finding needs "cannot mate" for a decisive result, "can mate" for a draw
    quick = can_checkmate(board, other, mode="quick")
    if a.result != DRAW and quick.value is None and not _may_be_unable_to_mate(board, other):
        return None  # practically never a "cannot": not searched, not undecided
    v = decide_can_mate(board, other, a.result == DRAW, quick=quick)
    if v.value is None:
        a.extra["undecided"] = "time_forfeit"
        return None
    law = DRAW if v.value is False else win_for(other)
    if law == a.result:
        return None
    ev = {"flagged": "white" if flagged else "black", "flagged_is": how,
          "verdict": _verdict_json(v), "fen": board.fen(), "material": describe_material(board),
          "material_points": {"white": material_points(board, chess.WHITE),
                              "black": material_points(board, chess.BLACK)}}
    if v.value is False:
        text = (f"{_title(flagged)} lost on time, but {_title(other)} cannot checkmate "
                f"{_title(flagged)}'s king by any series of legal moves ({v.reason}): "
                f"the game is drawn (Article 6.9), not {a.result}.")
    else:
        text = (f"{_title(flagged)} ran out of time and {_title(other)} can still checkmate "
                f"(e.g. {' '.join(v.line) or 'a helpmate exists'}): the game is lost for "
                f"{_title(flagged)} (Article 6.9), not drawn.")
    return _finding(a, "time_forfeit", law, "6.9", a.plies, ev, text)


CHECK_FUNCTIONS: dict[str, Callable[[AuditedGame], Finding | None]] = {
    "moves_after_end": check_moves_after_end,
    "illegal_move": check_illegal_move,
    "result_after_end": check_result_after_end,
    "result_vs_position": check_result_vs_position,
    "time_forfeit": check_time_forfeit,
}


def audit_game(a: AuditedGame, checks: tuple[str, ...] = CHECKS) -> Finding | None:
    """Run ``checks`` on one replayed game; the first finding, if any.

    >>> from remis.pgn import GameText, parse_game
    >>> g = parse_game(GameText(1, 0, '[Result "1-0"]\\n\\n1. f3 e5 2. g4 Qh4# 1-0\\n'))
    >>> audit_game(audit_replay(g)).check
    'result_vs_position'
    """
    f = _first_finding(a, checks)
    if f is not None and _cannot_mate_at_end(f):
        return _after_first_dead(a, checks) or f
    return f


def _first_finding(a: AuditedGame, checks: tuple[str, ...]) -> Finding | None:
    for name in CHECKS:
        if name in checks:
            f = CHECK_FUNCTIONS[name](a)
            if f is not None:
                return f
    return None


def _cannot_mate_at_end(f: Finding) -> bool:
    """A finding that rests on a player's "cannot mate" in the final
    position (a win scored for them, 5.1.2; a loss on time against them,
    6.9): there the game may have been dead, and so over, earlier."""
    return ((f.check == "result_vs_position" and f.article == "5.1.2")
            or (f.check == "time_forfeit" and f.result_under_laws == DRAW))


def _after_first_dead(a: AuditedGame, checks: tuple[str, ...]) -> Finding | None:
    """Where the final position is proved dead (neither side can mate: the
    per-ply test of the audit runs quick mode only), the finding of the
    game ruled on again by the core with its first position proved dead as
    its end (5.2.2), as ``remis game`` rules on it; else None."""
    if a.fen is None:
        return None
    f = rule(a.game, **{**READ, "last_position": True,
                        "rule": "all" if a.laws.automatic_repetition else "position"})
    if f[5] is None:
        return None
    again = audit_facts(f, a.laws, a.game)
    return _first_finding(again, checks)
