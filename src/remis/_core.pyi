"""Types of the compiled core (rust/, built by maturin as ``remis._core``)."""

Board = tuple[int, int, int, int, int, int, int, int]
State = tuple[bool, int, int | None, bool, int, int]
Proof = tuple[str, bool, int, int, int]
Reason = tuple[str, list[int], list[str], Proof | None]

def core_version() -> str: ...

# unwinnable::py (remis.unwinnable): value, method, nodes, moves, forced plies, reason
def can_checkmate(board: Board, state: State, color: bool, quick: bool,
                  max_nodes: int | None = None, max_seconds: float | None = None,
                  ) -> tuple[bool | None, str, int, list[str], int, Reason]: ...
