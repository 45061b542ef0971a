//! The core's per-ply dead test for one live game (`remis.EngineDeadTest`, its Python
//! face): the test `remis game` runs after every ply ([`crate::rules::dead`]), kept with
//! its per-game budget and its cache for as long as the Python object lives.
//!
//! The board crosses as python-chess's bitboards, as for `remis._core.can_checkmate`:
//! the arbiter asks after every move, so the crossing must cost little. The test holds
//! the GIL (quick mode, and full mode within a few thousand nodes), so no two threads
//! ever borrow one engine at once.

use pyo3::prelude::*;

use super::guard::{catch, guard, internal_error};
use super::{KindFacts, dead_to_py};
use crate::board::fen;
use crate::rules::dead::{DeadTest, Engine, FULL_RUNS_PER_STRUCTURE};
use crate::unwinnable::py::python_board;

#[pyclass(module = "remis._core", name = "DeadTest")]
pub struct CoreDeadTest {
    pub(super) engine: Engine,
    full_runs: u32,
}

impl CoreDeadTest {
    /// Start the per-game state afresh after a panic, which may have torn it.
    pub(super) fn reset(&mut self) {
        self.engine = Engine::with_full_runs(self.full_runs);
    }
}

#[pymethods]
impl CoreDeadTest {
    /// A test for one game that allows `full_runs` searches beyond quick mode per pawn
    /// structure and material that end without a proof (0: quick mode only).
    #[new]
    #[pyo3(signature = (full_runs=FULL_RUNS_PER_STRUCTURE))]
    fn new(full_runs: u32) -> Self {
        CoreDeadTest {
            engine: Engine::with_full_runs(full_runs),
            full_runs,
        }
    }

    /// The dead test on the board as python-chess holds it (the bitboards of pawns,
    /// knights, bishops, rooks, queens, kings, White's and Black's pieces, then the
    /// turn, the castling rights, the en passant square, chess960, the halfmove clock
    /// and the fullmove number): None (not proved dead) or (kind, material, proof) as
    /// in an end's facts. Raises `ValueError` on a position that is not legal.
    #[allow(clippy::too_many_arguments)] // python-chess's board, field by field
    #[pyo3(signature = (pawns, knights, bishops, rooks, queens, kings, white, black, turn,
        castling, ep, chess960, halfmoves, fullmoves))]
    fn test(
        &mut self,
        py: Python<'_>,
        pawns: u64,
        knights: u64,
        bishops: u64,
        rooks: u64,
        queens: u64,
        kings: u64,
        white: u64,
        black: u64,
        turn: bool,
        castling: u64,
        ep: Option<u32>,
        chess960: bool,
        halfmoves: u32,
        fullmoves: u32,
    ) -> PyResult<Option<KindFacts>> {
        let pos = python_board(
            [pawns, knights, bishops, rooks, queens, kings],
            white,
            black,
            turn,
            castling,
            ep,
            chess960,
            halfmoves,
            fullmoves,
        )?;
        match catch("DeadTest.test", || self.engine.test(&pos)) {
            Ok(verdict) => verdict.map(|v| dead_to_py(py, &v, &pos)).transpose(),
            Err(payload) => {
                // the per-game state may be torn: what was learnt is let go
                self.reset();
                let place = || format!("on {}", fen(&pos));
                Err(internal_error("DeadTest.test", place, &*payload))
            }
        }
    }
}

/// The units of a python-chess board, from its bitboards: pawns, knights, bishops,
/// rooks, queens, kings and White's units (None where they do not make a board).
fn units(roles: [u64; 6], white: u64) -> PyResult<shakmaty::Board> {
    crate::unwinnable::bits::board_of(roles, white)
        .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("not a board: overlapping units"))
}

/// The material of both sides on the board as python-chess holds it (the bitboards of
/// pawns, knights, bishops, rooks, queens, kings and White's units): its description,
/// White first (`K+B v K+N`), and whether neither side has mating material (the
/// material cases of 5.2.2; the board need not be a legal position).
#[pyfunction]
pub fn material(
    pawns: u64,
    knights: u64,
    bishops: u64,
    rooks: u64,
    queens: u64,
    kings: u64,
    white: u64,
) -> PyResult<(String, bool)> {
    guard(
        "material",
        || "on the pieces".to_owned(),
        || {
            let b = units([pawns, knights, bishops, rooks, queens, kings], white)?;
            let dead = crate::rules::dead::material_dead_board(&b).is_some();
            Ok((crate::board::describe_units(&b), dead))
        },
    )
}
