//! The engine's Python binding: `remis._core.can_checkmate`, called by
//! `remis.unwinnable` (which words the reasons).
//!
//! The board crosses as python-chess's bitboards. Full mode runs without the
//! GIL and asks Python for pending signals now and then (Ctrl-C stops it with
//! the `KeyboardInterrupt`); a panic becomes a `RuntimeError` naming the FEN.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move};

use super::valid::Raw;
use super::{
    Answer, Budget, ForcedEnd, Interrupt, Material, Method, Mode, Reason, StaticKind, StaticProof,
    Stop, Verdict, can_checkmate as decide,
};

/// python-chess's bitboards: pawns, knights, bishops, rooks, queens, kings,
/// white, black.
type BoardFields = (u64, u64, u64, u64, u64, u64, u64, u64);
/// The rest of python-chess's board: turn (white: true), castling rights, en
/// passant square, chess960, halfmove clock, fullmove number.
type StateFields = (bool, u64, Option<u32>, bool, u32, u32);

/// A static proof for Python: kind, dark (for one shade), frozen pawns, boxed
/// squares of the black and the white king.
type ProofFields = (&'static str, bool, u64, u64, u64);

/// A reason for Python: its code, numbers, moves (UCI) and a static proof.
type ReasonFields = (String, Vec<u64>, Vec<String>, Option<ProofFields>);

/// value (None: undecided), method, nodes, moves (UCI: the helpmate line, or
/// the forced moves played before the deciding stage), forced plies, reason.
type VerdictFields = (
    Option<bool>,
    &'static str,
    u64,
    Vec<String>,
    usize,
    ReasonFields,
);

fn raw(board: BoardFields, state: StateFields) -> Raw {
    let (p, n, b, r, q, k, white, black) = board;
    let (turn, castling, ep, chess960, halfmoves, fullmoves) = state;
    Raw {
        roles: [p, n, b, r, q, k],
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

fn uci(moves: &[Move], mode: CastlingMode) -> Vec<String> {
    moves.iter().map(|m| m.to_uci(mode).to_string()).collect()
}

fn material_code(m: Material) -> &'static str {
    match m {
        Material::BareKing => "bare_king",
        Material::Insufficient => "insufficient",
        Material::NoPromotion => "no_promotion",
    }
}

fn proof_fields(p: &StaticProof) -> ProofFields {
    let (kind, dark) = match p.kind {
        StaticKind::NoCheck => ("no_check", false),
        StaticKind::OneShade { dark } => ("one_shade", dark),
        StaticKind::Flight => ("flight", false),
    };
    (kind, dark, p.frozen_pawns, p.boxed[0], p.boxed[1])
}

fn reason_fields(reason: &Reason, mode: CastlingMode) -> ReasonFields {
    let none = |code: String| (code, Vec::new(), Vec::new(), None);
    match reason {
        Reason::Material(m) => none(format!("material:{}", material_code(*m))),
        Reason::GameOver { stalemate } => none(
            if *stalemate {
                "game_over:stalemate"
            } else {
                "game_over:mated"
            }
            .to_owned(),
        ),
        Reason::Forced(end) => none(match end {
            ForcedEnd::Stalemate => "forced:stalemate".to_owned(),
            ForcedEnd::Mated => "forced:mated".to_owned(),
            ForcedEnd::Cycle => "forced:cycle".to_owned(),
            ForcedEnd::Material(m) => format!("forced:material:{}", material_code(*m)),
        }),
        Reason::Static(p) => (
            "static".to_owned(),
            Vec::new(),
            Vec::new(),
            Some(proof_fields(p)),
        ),
        Reason::AfterEveryMove { counts, example } => {
            let c = counts;
            let numbers = [c.stalemate, c.mated, c.material, c.cycle, c.blocked]
                .map(u64::from)
                .to_vec();
            let (moves, proof) = match example {
                Some((line, p)) => (uci(line, mode), Some(proof_fields(p))),
                None => (Vec::new(), None),
            };
            ("after_every_move".to_owned(), numbers, moves, proof)
        }
        Reason::Lines { plies, ends } => (
            "lines".to_owned(),
            vec![
                u64::from(*plies),
                u64::from(ends.game_over),
                u64::from(ends.material),
            ],
            Vec::new(),
            None,
        ),
        Reason::Exhausted { positions } => {
            ("exhausted".to_owned(), vec![*positions], Vec::new(), None)
        }
    }
}

fn method_name(m: Method) -> &'static str {
    match m {
        Method::Material => "material",
        Method::Forced => "forced",
        Method::Static => "static",
        Method::Search => "search",
        Method::Visit => "visit",
        Method::Exhaustive => "exhaustive",
        Method::Undecided => "undecided",
    }
}

fn fields(v: &Verdict, mode: CastlingMode) -> VerdictFields {
    let forced = v.forced.len();
    let method = method_name(v.method);
    match &v.answer {
        Answer::Can(line) => (
            Some(true),
            method,
            v.nodes,
            uci(line, mode),
            forced,
            (String::new(), Vec::new(), Vec::new(), None),
        ),
        Answer::Cannot(reason) => (
            Some(false),
            method,
            v.nodes,
            uci(&v.forced, mode),
            forced,
            reason_fields(reason, mode),
        ),
        Answer::Unknown => {
            let stop = match v.stop {
                Some(Stop::Quick) | None => "quick",
                Some(Stop::Nodes) => "nodes",
                Some(Stop::Time) => "time",
                Some(Stop::Interrupted) => "interrupted",
            };
            let reason = (format!("undecided:{stop}"), Vec::new(), Vec::new(), None);
            (None, method, v.nodes, uci(&v.forced, mode), forced, reason)
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

/// Can `color` (white: true) still checkmate on `board`? See the module docs
/// for the fields; raises `ValueError` (with python-chess's status bits) on a
/// position that is not legal.
#[pyfunction]
#[pyo3(signature = (board, state, color, quick, max_nodes=None, max_seconds=None))]
fn can_checkmate(
    py: Python<'_>,
    board: BoardFields,
    state: StateFields,
    color: bool,
    quick: bool,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<VerdictFields> {
    let raw = raw(board, state);
    let pos: Chess = raw
        .position()
        .map_err(|status| PyValueError::new_err(format!("illegal position (status {status})")))?;
    let color = if color { Color::White } else { Color::Black };
    let castling_mode = if raw.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mode = if quick { Mode::Quick } else { Mode::Full };
    let deadline = match max_seconds {
        Some(s) if s.is_finite() && s > 0.0 => {
            Instant::now().checked_add(Duration::from_secs_f64(s.min(1e9)))
        }
        _ => None,
    };
    let signal: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
    let caught = Arc::clone(&signal);
    let interrupt = Interrupt(Arc::new(move || {
        Python::attach(|py| match py.check_signals() {
            Ok(()) => false,
            Err(e) => {
                if let Ok(mut slot) = caught.lock() {
                    *slot = Some(e);
                }
                true
            }
        })
    }));
    let budget = Budget {
        max_nodes,
        deadline,
        interrupt: (mode == Mode::Full).then_some(interrupt),
    };
    let run = || catch_unwind(AssertUnwindSafe(|| decide(&pos, color, mode, &budget)));
    let outcome = if mode == Mode::Full {
        py.detach(run)
    } else {
        run()
    };
    match outcome {
        Ok(v) => {
            if v.stop == Some(Stop::Interrupted)
                && let Some(e) = signal.lock().ok().and_then(|mut s| s.take())
            {
                return Err(e);
            }
            Ok(fields(&v, castling_mode))
        }
        Err(payload) => Err(PyRuntimeError::new_err(format!(
            "the unwinnability engine failed on {} ({}): {}",
            Fen::from_position(&pos, EnPassantMode::Legal),
            if color == Color::White {
                "white"
            } else {
                "black"
            },
            panic_text(payload.as_ref())
        ))),
    }
}

/// Add the engine's functions to the `_core` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(can_checkmate, m)?)?;
    Ok(())
}
