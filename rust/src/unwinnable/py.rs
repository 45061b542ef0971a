//! The engine's Python binding: `remis._core.can_checkmate`, called by
//! `remis.unwinnable` (which words the reasons).
//!
//! The board crosses as python-chess's bitboards, as plain arguments, and the
//! verdict comes back as one flat tuple with interned strings: quick mode is
//! asked after every ply of a game, so the crossing must cost little. Full mode
//! runs without the GIL and asks Python for pending signals now and then
//! (Ctrl-C stops it with the `KeyboardInterrupt`); a panic becomes
//! `remis.InternalError` naming the FEN.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

use super::valid::Raw;
use super::{
    Answer, Budget, ForcedEnd, Interrupt, Material, Mode, Reason, StaticKind, StaticProof, Stop,
    Verdict, readable,
};
use crate::binding::guard::{catch, guard, internal_error};

/// A static proof for Python: kind, dark (for one shade), frozen pawns, boxed
/// squares of the black and the white king.
type ProofFields = (&'static str, bool, u64, u64, u64);

/// value (None: undecided), method, nodes, moves (UCI: the helpmate line, or
/// the forced moves played before the deciding stage), forced plies, and the
/// reason: its code, numbers, moves (UCI) and a static proof.
pub(crate) type VerdictFields<'py> = (
    Option<bool>,
    Bound<'py, PyString>,
    u64,
    Vec<Bound<'py, PyString>>,
    usize,
    Bound<'py, PyString>,
    Vec<u64>,
    Vec<Bound<'py, PyString>>,
    Option<ProofFields>,
);

fn uci<'py>(py: Python<'py>, moves: &[Move], mode: CastlingMode) -> Vec<Bound<'py, PyString>> {
    // one buffer for the line: a helpmate's forty moves need no string of their own
    let mut s = String::with_capacity(8);
    moves
        .iter()
        .map(|m| {
            s.clear();
            m.to_uci(mode).append_to_string(&mut s);
            PyString::new(py, &s)
        })
        .collect()
}

fn proof_fields(p: &StaticProof) -> ProofFields {
    let (kind, dark) = match p.kind {
        StaticKind::NoCheck => ("no_check", false),
        StaticKind::OneShade { dark } => ("one_shade", dark),
        StaticKind::Flight => ("flight", false),
    };
    (kind, dark, p.frozen_pawns, p.boxed[0], p.boxed[1])
}

/// The code of a reason (see `remis.unwinnable.reasons`).
fn code(v: &Verdict) -> &'static str {
    let material = |m: &Material, forced: bool| match (m, forced) {
        (Material::BareKing, false) => "material:bare_king",
        (Material::Insufficient, false) => "material:insufficient",
        (Material::NoPromotion, false) => "material:no_promotion",
        (Material::BareKing, true) => "forced:material:bare_king",
        (Material::Insufficient, true) => "forced:material:insufficient",
        (Material::NoPromotion, true) => "forced:material:no_promotion",
    };
    match &v.answer {
        Answer::Can(_) => "",
        Answer::Unknown => match v.stop {
            Some(Stop::Quick) | None => "undecided:quick",
            Some(Stop::Nodes) => "undecided:nodes",
            Some(Stop::Time) => "undecided:time",
            Some(Stop::Interrupted) => "undecided:interrupted",
        },
        Answer::Cannot(reason) => match reason {
            Reason::Material(m) => material(m, false),
            Reason::GameOver { stalemate: true } => "game_over:stalemate",
            Reason::GameOver { stalemate: false } => "game_over:mated",
            Reason::Forced(ForcedEnd::Stalemate) => "forced:stalemate",
            Reason::Forced(ForcedEnd::Mated) => "forced:mated",
            Reason::Forced(ForcedEnd::Cycle) => "forced:cycle",
            Reason::Forced(ForcedEnd::Material(m)) => material(m, true),
            Reason::Static(_) => "static",
            Reason::AfterEveryMove { .. } => "after_every_move",
            Reason::Lines { .. } => "lines",
            Reason::Exhausted { .. } => "exhausted",
        },
    }
}

/// The units of each kind, White's then Black's (queens, rooks, bishops, knights, pawns),
/// on `pos` after the `forced` moves: the material a material reason describes.
fn material_counts(pos: &Chess, forced: &[Move]) -> Vec<u64> {
    let mut p = pos.clone();
    for &m in forced {
        p.play_unchecked(m);
    }
    let b = p.board();
    let mut out = Vec::with_capacity(10);
    for color in [Color::White, Color::Black] {
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            out.push(u64::from(b.by_piece(role.of(color)).count() as u32));
        }
    }
    out
}

/// The verdict `v` on `pos` as Python reads it (castling moves written for `mode`). A
/// material reason's numbers are the units it describes (see [`material_counts`]), so
/// that its words need no board.
pub(crate) fn fields<'py>(
    py: Python<'py>,
    v: &Verdict,
    pos: &Chess,
    mode: CastlingMode,
) -> VerdictFields<'py> {
    let (value, moves) = match &v.answer {
        Answer::Can(line) => (Some(true), uci(py, line, mode)),
        Answer::Cannot(_) => (Some(false), uci(py, &v.forced, mode)),
        Answer::Unknown => (None, uci(py, &v.forced, mode)),
    };
    let (numbers, example, proof) = match &v.answer {
        Answer::Cannot(Reason::Static(p)) => (Vec::new(), Vec::new(), Some(proof_fields(p))),
        Answer::Cannot(Reason::AfterEveryMove { counts: c, example }) => {
            let numbers = [c.stalemate, c.mated, c.material, c.cycle, c.blocked].map(u64::from);
            match example {
                Some((line, p)) => (numbers.to_vec(), uci(py, line, mode), Some(proof_fields(p))),
                None => (numbers.to_vec(), Vec::new(), None),
            }
        }
        Answer::Cannot(Reason::Lines { plies, ends }) => {
            let numbers = [*plies, ends.game_over, ends.material].map(u64::from);
            (numbers.to_vec(), Vec::new(), None)
        }
        Answer::Cannot(Reason::Exhausted { positions }) => (vec![*positions], Vec::new(), None),
        Answer::Cannot(Reason::Material(_) | Reason::Forced(ForcedEnd::Material(_))) => {
            (material_counts(pos, &v.forced), Vec::new(), None)
        }
        _ => (Vec::new(), Vec::new(), None),
    };
    let interned = |s: &'static str| PyString::intern(py, s);
    (
        value,
        interned(v.method.name()),
        v.nodes,
        moves,
        v.forced.len(),
        interned(code(v)),
        numbers,
        example,
        proof,
    )
}

/// A board as python-chess holds it, field by field (see [`can_checkmate`]).
#[allow(clippy::too_many_arguments)] // python-chess's board, field by field
fn raw_board(
    roles: [u64; 6],
    white: u64,
    black: u64,
    turn: bool,
    castling: u64,
    ep: Option<u32>,
    chess960: bool,
    halfmoves: u32,
    fullmoves: u32,
) -> Raw {
    Raw {
        roles,
        white,
        black,
        turn: if turn { Color::White } else { Color::Black },
        castling,
        ep,
        chess960,
        halfmoves,
        fullmoves,
    }
}

/// The position of a board as python-chess holds it, field by field (see
/// [`can_checkmate`]); `ValueError` with python-chess's status bits where it is
/// not legal.
#[allow(clippy::too_many_arguments)] // python-chess's board, field by field
pub(crate) fn python_board(
    roles: [u64; 6],
    white: u64,
    black: u64,
    turn: bool,
    castling: u64,
    ep: Option<u32>,
    chess960: bool,
    halfmoves: u32,
    fullmoves: u32,
) -> PyResult<Chess> {
    let raw = raw_board(
        roles, white, black, turn, castling, ep, chess960, halfmoves, fullmoves,
    );
    raw.position()
        .map_err(|status| PyValueError::new_err(format!("illegal position (status {status})")))
}

/// Why the board as python-chess holds it (the bitboards of pawns, knights,
/// bishops, rooks, queens and kings, of White's and Black's pieces, then the turn,
/// the castling rights, the en passant square and chess960) cannot arise in a game,
/// in remis's words, or None when it can (`remis.fen.illegal_reason`).
#[pyfunction]
fn illegal_reason(
    roles: [u64; 6],
    white: u64,
    black: u64,
    turn: bool,
    castling: u64,
    ep: Option<u32>,
    chess960: bool,
) -> PyResult<Option<String>> {
    let raw = raw_board(roles, white, black, turn, castling, ep, chess960, 0, 1);
    let place = || format!("on the pieces {roles:?} of White {white:#x}");
    guard("illegal_reason", place, || Ok(raw.illegal_reason()))
}

/// Can `color` (white: true) still checkmate? The board as python-chess holds
/// it: the bitboards of pawns, knights, bishops, rooks, queens, kings, White's
/// and Black's pieces, then the turn (white: true), the castling rights, the en
/// passant square, chess960, the halfmove clock and the fullmove number. Raises
/// `ValueError` (with python-chess's status bits) on a position that is not
/// legal.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // python-chess's board, field by field: no tuple to build
#[pyo3(signature = (pawns, knights, bishops, rooks, queens, kings, white, black, turn,
    castling, ep, chess960, halfmoves, fullmoves, color, quick, max_nodes=None, max_seconds=None))]
fn can_checkmate<'py>(
    py: Python<'py>,
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
    color: bool,
    quick: bool,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<VerdictFields<'py>> {
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
    let color = if color { Color::White } else { Color::Black };
    let castling_mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let deadline = match max_seconds {
        Some(s) if s.is_finite() && s > 0.0 => {
            Instant::now().checked_add(Duration::from_secs_f64(s.min(1e9)))
        }
        _ => None,
    };
    let mut budget = Budget {
        max_nodes,
        deadline,
        ..Budget::default()
    };
    let outcome = if quick {
        // a few thousand nodes at most: no signals to wait for, no GIL to give back
        catch("can_checkmate", || {
            decide(&pos, color, Mode::Quick, &budget)
        })
    } else {
        let (interrupt, signal) = signal_interrupt();
        budget.interrupt = Some(interrupt);
        let run = || catch("can_checkmate", || decide(&pos, color, Mode::Full, &budget));
        let outcome = py.detach(run);
        if let Ok(v) = &outcome
            && v.stop == Some(Stop::Interrupted)
            && let Some(e) = signal.take()
        {
            return Err(e);
        }
        outcome
    };
    match outcome {
        Ok(v) => Ok(fields(py, &v, &pos, castling_mode)),
        Err(payload) => Err(failure(&pos, color, payload.as_ref())),
    }
}

/// The exception a Python signal handler raised during a search, kept for the caller
/// to raise once the search has stopped.
#[derive(Clone, Default)]
pub struct Signalled(Arc<Mutex<Option<PyErr>>>);

impl Signalled {
    /// The exception, if a handler raised one (taken: asked again, None).
    #[must_use]
    pub fn take(&self) -> Option<PyErr> {
        self.0.lock().ok().and_then(|mut s| s.take())
    }
}

/// An interrupt test that runs Python's pending signal handlers (Ctrl-C, a service
/// worker's cancel signal) and stops the search where one raises; the exception is
/// kept in the [`Signalled`] returned with it.
#[must_use]
pub fn signal_interrupt() -> (Interrupt, Signalled) {
    let signal = Signalled::default();
    let caught = signal.clone();
    let test = move || {
        Python::attach(|py| match py.check_signals() {
            Ok(()) => false,
            Err(e) => {
                if let Ok(mut slot) = caught.0.lock() {
                    *slot = Some(e);
                }
                true
            }
        })
    };
    (Interrupt(Arc::new(test)), signal)
}

/// The engine's answer, its line for the caller to read.
fn decide(pos: &Chess, color: Color, mode: Mode, budget: &Budget) -> Verdict {
    let mut v = super::can_checkmate(pos, color, mode, budget);
    readable(pos, &mut v);
    v
}

/// The `InternalError` of a panic while deciding `color` on `pos`.
fn failure(pos: &Chess, color: Color, payload: &(dyn std::any::Any + Send)) -> PyErr {
    let place = || {
        format!(
            "on {} ({})",
            Fen::from_position(pos, EnPassantMode::Legal),
            if color == Color::White {
                "white"
            } else {
                "black"
            },
        )
    };
    internal_error("can_checkmate", place, payload)
}

/// Add the engine's functions to the `_core` module.
///
/// # Errors
///
/// Python's error where a name cannot be added to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(can_checkmate, m)?)?;
    m.add_function(wrap_pyfunction!(illegal_reason, m)?)?;
    m.add("FULL_NODES", super::FULL_NODES)?;
    Ok(())
}
