"""Types of the compiled core (rust/, built by maturin as ``remis._core``)."""

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

def _panic_inside_the_guard() -> None: ...
