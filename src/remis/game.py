"""Rule on whole games read from PGN: the core (``remis._core``) reads and rules
on each game; this module turns its facts into the ``remis game`` JSON contract."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from remis import facts as F
from remis.laws import LawsMode, core_laws, laws_for
from remis.ruling import Claim, Ruling

if TYPE_CHECKING:
    import chess
    import chess.pgn

    from remis.pgn import ParsedGame
    from remis.rules import DeadTest

ClaimMode = Literal["all", "first", "none"]


@dataclass
class GameError:
    """An unreadable or illegal move (or an unplayable game) at ``ply``;
    ``offset`` is the byte of the stream where it stands, when known.

    >>> from remis import _core
    >>> error = from_facts(_core.rule_text(b"1. e4 e5 2. Ke3 *")).error
    >>> error.ply, error.message[:15], error.offset
    (3, "illegal san: 'K", 12)
    """

    ply: int
    message: str
    offset: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form of the CLI contract.

        >>> GameError(3, "illegal san: 'Kf3'").to_json()
        {'ply': 3, 'message': "illegal san: 'Kf3'"}
        >>> GameError(3, "illegal san: 'Kf3'", 120).to_json()["offset"]
        120
        """
        out: dict[str, Any] = {"ply": self.ply, "message": self.message}
        if self.offset is not None:
            out["offset"] = self.offset
        return out


@dataclass
class GameRuling:
    """The rulings on one PGN game (see ``remis game --json``): the game's
    number in its file (``index``, from 1), its byte ``offset``, its headers,
    and what :func:`remis.replay` found, with ``extra`` facts such as a time
    forfeit's verdict.

    >>> import io, chess.pgn
    >>> game = chess.pgn.read_game(io.StringIO('[White "A"]\\n\\n1. f3 e5 2. g4 Qh4# 0-1'))
    >>> r = rule_on_game(game)
    >>> r.headers["White"], r.plies, r.end.termination, r.end.article
    ('A', 4, 'checkmate', '5.1.1')
    """

    index: int
    offset: int
    headers: dict[str, str]
    variant: str
    plies: int
    end: Ruling | None
    claims: list[Claim]
    error: GameError | None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the CLI contract.

        >>> from remis.pgn import GameText, parse_game
        >>> g = parse_game(GameText(1, 0, "1. e4 e5 2. Kf3 0-1\\n"))
        >>> j = rule_on_parsed(g).to_json()
        >>> j["game"], j["plies"], j["end"], j["claims"], j["error"]["ply"]
        (1, 2, None, [], 3)
        """

        out: dict[str, Any] = {
            "game": self.index,
            "headers": self.headers,
            "variant": self.variant,
            "plies": self.plies,
            "end": None if self.end is None else self.end.to_json(),
            "claims": [c.to_json() for c in self.claims],
            "error": None if self.error is None else self.error.to_json(),
        }
        out.update(self.extra)
        return out


def from_facts(f: tuple[Any, ...], laws: LawsMode = "current") -> GameRuling:
    """The :class:`GameRuling` of one game from the core's facts
    (``remis._core.GameReader``, ``remis._core.rule_text``) ruled on under
    ``laws`` (``"as-played"``: those of the game's ``Date``, named in
    ``extra["laws"]``).

    >>> from remis import _core
    >>> g = from_facts(_core.rule_text(b"1. f3 e5 2. g4 Qh4# 0-1\\n"))
    >>> g.plies, g.end.termination, g.end.result
    (4, 'checkmate', '0-1')
    """
    index, offset, headers, variant, plies, end, claims, error, flag = f[:9]
    # where positions stood is worded only for an end or a claim (most games have neither)
    at = F.where(f[16]) if end is not None or claims else None
    ruling = None if end is None else F.ruling(end, at)
    err = None if error is None else GameError(*error)
    tags: dict[str, str] = headers
    in_force = laws_for(tags.get("Date"), laws)
    out = GameRuling(index, offset, tags, variant, plies, ruling,
                     [F.claim(c, in_force, at=at) for c in claims], err)
    if laws != "current":
        out.extra["laws"] = in_force.label
    if flag is not None:
        white, verdict = flag
        v = None if verdict is None else F.verdict(not white, verdict)
        out.extra["time_forfeit"] = F.flag_fall_json(white, ruling, v)
    return out


def dead_mode(dead_test: DeadTest | None) -> str:
    """The core's name for a dead-position test: ``engine`` (the default,
    :class:`~remis.unwinnable.deadtest.EngineDeadTest`,
    :func:`~remis.unwinnable.deadtest.engine_dead_test`), ``quick`` (its
    quick mode only) or ``material`` (:func:`~remis.rules.material_dead_test`).
    Any other test cannot run inside the core.

    >>> from remis.rules import material_dead_test
    >>> dead_mode(None), dead_mode(material_dead_test)
    ('engine', 'material')
    """
    if dead_test is None:
        return "engine"
    from remis.rules import material_dead_test
    from remis.unwinnable.deadtest import QUICK_ONLY, EngineDeadTest, engine_dead_test

    if dead_test is material_dead_test:
        return "material"
    if dead_test is engine_dead_test:
        return "engine"
    if isinstance(dead_test, EngineDeadTest):
        return "quick" if dead_test.limit == QUICK_ONLY else "engine"
    raise TypeError(f"the core cannot run the dead test {dead_test!r}: pass None, "
                    "material_dead_test or an EngineDeadTest")


def reading_options(claims: ClaimMode = "all", dead_test: DeadTest | None = None,
                    last_position: bool = True, laws: LawsMode = "current") -> dict[str, Any]:
    """How ``remis game`` has the core read and rule (``remis._core.GameReader``
    and ``rule_text`` take these): under the Laws of each game's date, the
    core asks :func:`remis.laws.core_laws` for its automatic ends and its
    fifty-move count.

    >>> sorted(reading_options(laws="as-played"))
    ['claims', 'dead', 'last_position', 'laws']
    """
    options: dict[str, Any] = {"claims": claims, "dead": dead_mode(dead_test),
                               "last_position": last_position}
    if laws != "current":
        options["laws"] = core_laws(laws)
    return options


def rule_on_parsed(g: ParsedGame, *, claims: ClaimMode = "all",
                   dead_test: DeadTest | None = None, last_position: bool = True,
                   laws: LawsMode = "current") -> GameRuling:
    """Rule on one parsed game.  An unreadable move keeps what was replayed
    before it and is reported as ``error``.  ``laws="as-played"`` judges it
    by the Laws in force on its ``Date`` (:func:`remis.laws.laws_for`: the
    automatic ends and the 9.3 count), and ``extra["laws"]`` names them.
    The dead test defaults to the engine's per-game test.  With
    ``last_position`` (the default), a game that the per-ply test let go on
    to its last position is asked once more there, in full mode: where that
    position is proved dead, the game ended at the first position proved
    dead, found by a binary search over the plies.  Under a budget of the
    calling context (:func:`remis.unwinnable.limit`, the service's per
    request), the core's engine questions get what is left of it and are
    charged to it.

    >>> from remis.pgn import GameText, parse_game
    >>> g = parse_game(GameText(1, 0, "1. f3 e5 2. g4 Qh4# 0-1\\n"))
    >>> rule_on_parsed(g).end.termination
    'checkmate'
    >>> g = parse_game(GameText(2, 0, '[Result "0-1"]\\n[Termination "Time forfeit"]\\n\\n'
    ...                            '1. e4 e5 2. Ke2 Ke7 0-1\\n'))
    >>> tf = rule_on_parsed(g).extra["time_forfeit"]
    >>> tf["player"], tf["result"]
    ('white', '0-1')
    """
    from remis import _core
    from remis.unwinnable.budget import Cancelled, current

    options = reading_options(claims, dead_test, last_position, laws)
    budget = current()
    if budget is not None:
        if budget.cancelled():
            raise Cancelled("the work was cancelled")
        spent = budget.spent() is not None
        options.update(engine_nodes=1 if spent else max(budget.max_nodes - budget.nodes, 1),
                       engine_seconds=0.0 if spent else budget.seconds_left())
    f = _core.rule_text(g.text, index=g.index, offset=g.offset, fens=False, **g.flags,
                        **options)
    if budget is not None:
        budget.nodes += f[14]
        budget.cut = budget.cut or f[15]
    return from_facts(f, laws)


def claim_in_game(g: ParsedGame, ply: int, *, kind: str | None = None,
                  move: str | None = None, penalty_seconds: int = 120,
                  laws: LawsMode = "current") -> Claim:
    """The verdict on a draw claim by the player to move after ``ply`` plies of
    a parsed game (``remis claim``, ``/v1/claim``).  The game is replayed with
    the same automatic ends as ``remis game``: a claim after the game has
    ended (a record that goes on after a fivefold repetition, say) is moot.
    ``laws="as-played"`` judges it by the Laws in force on the game's ``Date``.

    >>> from remis.pgn import GameText, parse_game
    >>> text = " ".join(["Nf3 Nf6 Ng1 Ng8"] * 5) + " e4 *"
    >>> g = parse_game(GameText(1, 0, text))
    >>> claim_in_game(g, 8).article, claim_in_game(g, 21).valid
    ('9.2.2', False)
    >>> print(claim_in_game(g, 21).explanation)
    No claim can be made: the game is already over (fivefold repetition, Article 9.6.1).
    """
    from remis import _core
    from remis.history import History
    from remis.rules import rule_on_claim

    if g.board is None or not 0 <= ply <= len(g.moves):
        raise ValueError(f"no position after ply {ply}")
    moves = g.moves[:ply]
    in_force = laws_for(g.headers.get("Date"), laws)
    f = _core.rule_text(game_text(g.board, moves), claims="none", time_forfeit=False,
                        fens=False, rule="all" if in_force.automatic_repetition else "position")
    ended = None if f[5] is None else F.ruling(f[5])
    history = History(g.board)
    for m in moves:
        history.push(m)
    return rule_on_claim(history, kind=kind, move=move, penalty_seconds=penalty_seconds,
                         ended=ended, laws=in_force)


def game_text(board: chess.Board, moves: Iterable[chess.Move]) -> bytes:
    """A PGN game of ``moves`` (UCI, as python-chess reads long algebraic
    moves) from ``board``, for the core to read.

    >>> import chess
    >>> game_text(chess.Board(), [chess.Move.from_uci("e2e4")])
    b'e2e4 *\\n'
    >>> game_text(chess.Board("8/8/4k3/8/8/3K4/8/6R1 w - - 99 80"), [])
    b'[FEN "8/8/4k3/8/8/3K4/8/6R1 w - - 99 80"]\\n\\n *\\n'
    """
    import chess

    tags = ""
    fen = board.fen()
    if fen != chess.STARTING_FEN or board.chess960:
        tags = f'[FEN "{fen}"]\n'
        if board.chess960:
            tags = '[Variant "Chess960"]\n' + tags
        tags += "\n"
    return (tags + " ".join(m.uci() for m in moves) + " *\n").encode()


def rule_on_game(game: chess.pgn.Game, *, claims: ClaimMode = "all",
                 dead_test: DeadTest | None = None, last_position: bool = True,
                 laws: LawsMode = "current") -> GameRuling:
    """Rule on a python-chess game (its mainline), as :func:`rule_on_parsed`.

    >>> import io, chess.pgn
    >>> game = chess.pgn.read_game(io.StringIO("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"))
    >>> [c.article for c in rule_on_game(game).claims if c.ply == 8]
    ['9.2.2', '9.2.1']
    """
    import chess.pgn

    from remis.pgn import GameText, parse_game

    text = game.accept(chess.pgn.StringExporter(headers=True, variations=False,
                                                comments=False))
    g = parse_game(GameText(1, 0, text + "\n"))
    out = rule_on_parsed(g, claims=claims, dead_test=dead_test, last_position=last_position,
                         laws=laws)
    if out.error is None and game.errors:
        out.error = GameError(out.plies + 1, str(game.errors[0]))
    return out


def game_lines(path: str | Path, *, claims: ClaimMode = "all", laws: LawsMode = "current",
               file: str | None = None) -> Iterator[str | GameRuling]:
    """What ``remis game --json`` prints of every game of a PGN file (plain or
    compressed, ``-`` = stdin): the game's JSON line (with its newline), written
    whole by the core where the game has nothing to word or only a checkmate, a
    stalemate, claims or a flag fall whose verdict is a helpmate found, too little
    material or an undecided search (with Python's templates: :func:`core_words`),
    else its :class:`GameRuling`, which Python words (:meth:`GameRuling.to_json`).
    ``file`` is named first in each line the core writes, as when several
    files are read at once.  Under the Laws of each
    game's date (``laws="as-played"``), whose names are Python's, every game
    comes as a :class:`GameRuling`.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write("1. f3 e5 2. g4 Qh4# 0-1\\n\\n1. e4 e5 2. Ke3 *\\n")
    >>> mate, illegal = game_lines(p)
    >>> mate[:40], illegal.error.ply
    ('{"game": 1, "headers": {}, "variant": "s', 3)
    """
    from remis import _core
    from remis.pgn import core_games

    if laws != "current" or not _utf8(file):
        yield from rule_on_pgn_file(path, claims=claims, laws=laws)
        return
    options = reading_options(claims, None, True, laws)
    words = core_words()
    lines = core_games(path, lambda source: _core.GameLines(_core.GameReader(source, **options),
                                                            file=file, words=words))
    for item in lines:
        yield item if isinstance(item, str) else from_facts(item, laws)


#: the messages the core words itself (``remis._core.GameLines``)
CORE_MESSAGES = ("checkmate", "stalemate", "claim_threefold_on_board",
                 "claim_threefold_with_move", "claim_fifty_on_board", "claim_fifty_with_move",
                 "flag_fall_win", "flag_fall_draw", "flag_fall_undecided", "flag_fall_after_end")
#: the reasons of a flag fall's verdict that the core words itself: a helpmate found,
#: too little material, a search left undecided (:mod:`remis.unwinnable.reasons`)
CORE_REASONS = ("param.helpmate_plies", "param.helpmate_ply", "param.already_mated",
                "param.material_bare", "param.material_never", "param.material_promotion",
                "param.undecided_limit", "param.undecided_limit_one", "param.limit_quick",
                "param.limit_nodes", "param.limit_time", "param.limit_interrupt")
#: the ends the core words, whose termination a flag fall after them names
CORE_TERMINATIONS = ("checkmate", "stalemate")


def core_words() -> dict[str, str]:
    """Python's templates of the messages that the core words in ``remis game
    --json`` (a checkmate, a stalemate, claims under the current Laws, a flag
    fall), the reasons of a flag fall's verdict, the words of an end's
    termination (``termination.`` and its id) and the words of where a position
    stood: the words stay in one place, here.

    >>> words = core_words()
    >>> words["after"], words["termination.checkmate"]
    ('after {move}', 'checkmate')
    """
    from remis.messages import MESSAGES, TERMINATIONS
    from remis.reasons import REASONS
    from remis.ruling import AFTER, AT_START

    return {**{k: MESSAGES[k] for k in CORE_MESSAGES}, **{k: REASONS[k] for k in CORE_REASONS},
            **{f"termination.{k}": TERMINATIONS[k] for k in CORE_TERMINATIONS},
            "at_start": AT_START, "after": AFTER}


def _utf8(text: str | None) -> bool:
    """Whether ``text`` (a file name) can be written as UTF-8 by the core (a name
    undecodable on this system holds lone surrogates, which only Python writes).

    >>> _utf8("a.pgn"), _utf8("\\udcff.pgn")
    (True, False)
    """
    try:
        (text or "").encode()
    except UnicodeEncodeError:
        return False
    return True


def rule_on_pgn_file(path: str | Path, *, claims: ClaimMode = "all",
                     dead_test: DeadTest | None = None, last_position: bool = True,
                     laws: LawsMode = "current") -> Iterator[GameRuling]:
    """Rule on every game of a PGN file (plain or compressed, ``-`` = stdin),
    each as :func:`rule_on_parsed`.  A damaged compressed file raises
    :class:`~remis.compressed.CorruptInput` after the games read before the damage.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write("1. f3 e5 2. g4 Qh4# 0-1\\n")
    >>> [r.end.result for r in rule_on_pgn_file(p)]
    ['0-1']
    """
    from remis.pgn import game_facts

    for f in game_facts(path, **reading_options(claims, dead_test, last_position, laws)):
        yield from_facts(f, laws)
