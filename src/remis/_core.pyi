"""Types of the compiled core (rust/, built by maturin as ``remis._core``): games read
and ruled on, the live history and its dead test (rust/src/binding; facts come back as
plain tuples, which remis.facts reads), the unwinnability engine
(rust/src/unwinnable/py.rs)."""
from collections.abc import Callable, Iterator
from typing import Any, Literal, final

__all__ = [
    "FULL_NODES",
    "FULL_RUNS_PER_STRUCTURE",
    "DeadTest",
    "GameLines",
    "GameReader",
    "GameSplitter",
    "History",
    "InternalError",
    "_panic_at",
    "can_checkmate",
    "core_version",
    "illegal_reason",
    "material",
    "position_key",
    "rule_text",
]

Facts = tuple[Any, ...]
Key = list[int]
Proof = tuple[str, bool, int, int, int]
#: value, method, nodes, moves, forced plies, reason code, numbers, example moves, proof
CoreVerdict = tuple[bool | None, str, int, list[str], int, str, list[int], list[str],
                    Proof | None]

def core_version() -> str: ...

#: full mode's node budget when the caller gives none
FULL_NODES: int

# unwinnable::py (remis.unwinnable): python-chess's board field by field
def can_checkmate(pawns: int, knights: int, bishops: int, rooks: int, queens: int, kings: int,
                  white: int, black: int, turn: bool, castling: int, ep: int | None,
                  chess960: bool, halfmoves: int, fullmoves: int, color: bool, quick: bool,
                  max_nodes: int | None = None, max_seconds: float | None = None,
                  ) -> CoreVerdict: ...

#: roles: the bitboards of pawns, knights, bishops, rooks, queens, kings
def illegal_reason(roles: tuple[int, int, int, int, int, int], white: int, black: int,
                   turn: bool, castling: int, ep: int | None, chess960: bool) -> str | None: ...

class InternalError(RuntimeError):
    """A bug in remis's compiled core (a panic), with where its input stood:
    the entry point and, for a PGN stream, the game and byte after which it
    happened, for a history its ply and position.  Please report it.

    >>> issubclass(InternalError, RuntimeError)
    True
    """

#: make the entry point ``name`` (``History.push_uci``, ``rule_text``, ...) panic on its
#: next call in this thread: the test hook of the panic guard
def _panic_at(name: str) -> None: ...

def position_key(fen: str, chess960: bool = False) -> Key: ...
def rule_text(
    text: bytes,
    *,
    index: int = 1,
    offset: int = 0,
    claims: str = "all",
    last_position: bool = True,
    dead: str = "engine",
    rule: str = "all",
    fifty: int = 100,
    time_forfeit: bool = True,
    fens: bool = True,
    moves: bool = False,
    unclosed_comment: bool = False,
    tags_only: int | None = None,
    too_long: bool = False,
    laws: Callable[[str | None], tuple[bool, Callable[[str], int] | None]] | None = None,
    engine_nodes: int | None = None,
    engine_seconds: float | None = None,
) -> Facts: ...

# a game cut out: index, offset, text, unclosed_comment, tags_only, too_long
Game = tuple[int, int, bytes, bool, int | None, bool]

# pyo3 classes cannot be subclassed, and take their arguments in __new__
@final
class GameSplitter(Iterator[Game]):
    def __new__(
        cls,
        source: str | bytes | Any,
        *,
        start: int = 0,
        end: int | None = None,
        first_index: int = 1,
    ) -> GameSplitter: ...
    def __iter__(self) -> GameSplitter: ...
    def __next__(self) -> Game: ...
    def position(self) -> int: ...

@final
class GameReader(Iterator[Facts]):
    def __new__(
        cls,
        source: str | bytes | list[Game] | Any,
        *,
        start: int = 0,
        end: int | None = None,
        first_index: int = 1,
        claims: str = "all",
        last_position: bool = True,
        dead: str = "engine",
        rule: str = "all",
        fifty: int = 100,
        time_forfeit: bool = True,
        fens: bool = False,
        texts: bool = False,
        laws: Callable[[str | None], tuple[bool, Callable[[str], int] | None]] | None = None,
        engine_nodes: int | None = None,
        engine_seconds: float | None = None,
    ) -> GameReader: ...
    def __iter__(self) -> GameReader: ...
    def __next__(self) -> Facts: ...
    def position(self) -> int: ...

@final
class GameLines(Iterator[Facts | str]):
    def __new__(cls, reader: GameReader, *, file: str | None = None,
                words: dict[str, str] | None = None) -> GameLines: ...
    def __iter__(self) -> GameLines: ...
    def __next__(self) -> Facts | str: ...

@final
class History:
    def __new__(
        cls, fen: str | None = None, chess960: bool = False, dead: DeadTest | None = None
    ) -> History: ...
    @property
    def ply(self) -> int: ...
    @property
    def halfmoves(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def turn(self) -> bool: ...
    @property
    def ruled(self) -> bool: ...
    def fen(self) -> str: ...
    def push_uci(self, text: str) -> int: ...
    def push_squares(self, origin: int, target: int, promotion: int) -> int: ...
    def rulings(self) -> Literal[False] | tuple[Facts | None, list[Facts]] | None: ...
    def play(self, text: str) -> tuple[str, Facts | None]: ...
    def legal_uci(self, text: str) -> str | None: ...
    def play_legal(self, text: str) -> tuple[str, bool] | None: ...
    def push_fen(self, text: str) -> int: ...
    def pop(self) -> bool: ...
    def key(self) -> Key: ...
    def key_at(self, ply: int) -> Key: ...
    def position_keys(self) -> list[Key]: ...
    def occurrences(self, key: Key | None = None) -> list[int]: ...
    def count(self) -> int: ...
    def window_start(self) -> int: ...
    def may_repeat_after_move(self) -> bool: ...
    def doubles(self) -> list[Key]: ...
    def repeating_moves(self) -> list[tuple[str, list[int]]]: ...
    def occurrences_after(self, text: str) -> list[int]: ...
    def occurrences_after_fen(self, after_fen: str, zeroing: bool) -> list[int]: ...
    def san(self, text: str) -> str: ...
    def end(self) -> Facts | None: ...
    def claimable(self) -> list[Facts]: ...
    def ends(self) -> list[Facts | None]: ...
    def claims(
        self, fifty: int = 100, threefold: bool = True, fifty_moves: bool = True
    ) -> list[Facts]: ...
    def claim(
        self,
        white: bool,
        kind: str | None = None,
        text: str | None = None,
        after_fen: str | None = None,
        zeroing: bool = False,
        fifty: int = 100,
    ) -> tuple[str, str, str, list[int], int, str | None]: ...

#: searches beyond quick mode per structure and game that may end without a proof
FULL_RUNS_PER_STRUCTURE: int
#: a dead test's verdict: kind, material (insufficient material), proof (a dead
#: position: White's verdict facts, then Black's)
DeadFacts = tuple[str, str | None, Any]

@final
class DeadTest:
    def __new__(cls, full_runs: int = ...) -> DeadTest: ...
    def test(self, pawns: int, knights: int, bishops: int, rooks: int, queens: int,
             kings: int, white: int, black: int, turn: bool, castling: int, ep: int | None,
             chess960: bool, halfmoves: int, fullmoves: int) -> DeadFacts | None: ...

def material(pawns: int, knights: int, bishops: int, rooks: int, queens: int,
             kings: int, white: int) -> tuple[str, bool]: ...
