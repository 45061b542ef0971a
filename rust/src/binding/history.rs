//! The history of a live game, for `remis.History` (its Python face): the arbiter plays
//! moves one event at a time, and asks the rules after each.
//!
//! The arbiter's board is python-chess's, which also holds the positions an illegal
//! move that stood can leave (A.5.4: a pawn on the last rank, the side not to move in
//! check) and shakmaty refuses. Such a position is pushed as FEN: the history then
//! knows its key and its count, and answers no question that needs its moves.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, FromSetup, Move, Position};

use super::guard::{Located, guard};
use super::{claim_to_py, end_to_py};
use crate::board::{self, fen, from_fen, san, uci};
use crate::guarded;
use crate::history::History;
use crate::identity::Key;
use crate::rules::{self, ClaimKind, ClaimReason, Intended};

/// A key as Python holds it (the tuple of `remis.PositionKey`).
type PyKey = Vec<i128>;

fn key_to_py(k: &Key) -> PyKey {
    k.as_tuple().to_vec()
}

fn key_from_py(t: &[i128]) -> PyResult<Key> {
    if t.len() != 11 {
        return Err(PyValueError::new_err("a position key has 11 fields"));
    }
    let mut bb = [0u64; 8];
    for (b, v) in bb.iter_mut().zip(t) {
        *b = u64::try_from(*v).map_err(|_| PyValueError::new_err("not a position key"))?;
    }
    let castling = u64::try_from(t[9]).map_err(|_| PyValueError::new_err("not a position key"))?;
    let ep = u8::try_from(t[10]).unwrap_or(64);
    Ok(Key::from_parts(bb, t[8] != 0, castling, ep))
}

/// The position of `setup` where python-chess holds it too (it keeps only the castling
/// rights and the en passant square that stand, as the key does).
#[allow(clippy::result_large_err)] // the errors are dropped at once
fn lenient(setup: shakmaty::Setup, mode: CastlingMode) -> Option<Chess> {
    Chess::from_setup(setup, mode)
        .or_else(|e| e.ignore_invalid_castling_rights())
        .or_else(|e| e.ignore_invalid_ep_square())
        .or_else(|e| e.ignore_impossible_check())
        .or_else(|e| e.ignore_too_much_material())
        .ok()
}

/// The key, the no-progress count and (when shakmaty holds it) the position of a FEN.
fn read_fen(text: &str, mode: CastlingMode) -> PyResult<(Key, u32, Option<Chess>)> {
    let parsed: Fen = text
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{e}")))?;
    let setup = parsed.into_setup();
    let pos = lenient(setup.clone(), mode);
    let key = match &pos {
        Some(p) => Key::of(p),
        None => Key::of_board(
            &setup.board,
            setup.turn == Color::White,
            setup.castling_rights.0,
            64,
        ),
    };
    Ok((key, setup.halfmoves, pos))
}

/// The 9.2.3 identity of a FEN's position (`remis.position_key`), also of a position
/// shakmaty refuses.
#[pyfunction]
#[pyo3(signature = (fen, chess960=false))]
pub fn position_key(fen: &str, chess960: bool) -> PyResult<PyKey> {
    guard(
        "position_key",
        || format!("on {fen}"),
        || {
            let mode = if chess960 || from_fen(fen, false).is_ok_and(|(_, c960)| c960) {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            Ok(key_to_py(&read_fen(fen, mode)?.0))
        },
    )
}

fn claim_kind(kind: Option<&str>) -> PyResult<Option<ClaimKind>> {
    match kind {
        None => Ok(None),
        Some("threefold_repetition") => Ok(Some(ClaimKind::Threefold)),
        Some("fifty_moves") => Ok(Some(ClaimKind::Fifty)),
        Some(k) => Err(PyValueError::new_err(format!("unknown claim kind {k:?}"))),
    }
}

#[pyclass(module = "remis._core", name = "History")]
pub struct CoreHistory {
    h: History,
}

impl CoreHistory {
    /// A legal move of the position held, given in UCI.
    fn legal(&self, text: &str) -> PyResult<Move> {
        let pos = self.h.position();
        if !self.h.exact() {
            return Err(PyValueError::new_err(
                "the history does not hold this position (an illegal move stood)",
            ));
        }
        text.parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .ok_or_else(|| PyValueError::new_err(format!("illegal move {text} in {}", fen(pos))))
    }
}

impl Located for CoreHistory {
    /// The ply and the position the history stands at.
    fn place(&self) -> String {
        format!("at ply {} ({})", self.h.ply(), fen(self.h.position()))
    }
}

guarded! {
name = "History";
#[pymethods]
impl CoreHistory {
    /// A history from `fen` (default: the initial position); `chess960` asks for
    /// Chess960 castling.
    #[new]
    #[pyo3(signature = (fen=None, chess960=false))]
    fn new(fen: Option<&str>, chess960: bool) -> PyResult<Self> {
        let Some(f) = fen else {
            return Ok(CoreHistory {
                h: History::live(board::start()),
            });
        };
        if let Ok((pos, _)) = from_fen(f, chess960) {
            return Ok(CoreHistory {
                h: History::live(pos),
            });
        }
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let (key, clock, _) = read_fen(f, mode)?;
        Ok(CoreHistory {
            h: History::live_inexact(key, clock, board::start()),
        })
    }

    #[getter]
    fn ply(&self) -> u32 {
        self.h.ply()
    }

    /// The no-progress count, in half-moves.
    #[getter]
    fn halfmoves(&self) -> u32 {
        self.h.halfmoves()
    }

    /// Whether the history holds the position (false after a position shakmaty refuses).
    #[getter]
    fn exact(&self) -> bool {
        self.h.exact()
    }

    /// Play a legal move given in UCI; returns how often the new position has stood.
    fn push_uci(&mut self, text: &str) -> PyResult<usize> {
        let m = self.legal(text)?;
        Ok(self.h.push(m))
    }

    /// Record the position, given as FEN, that a move the history cannot play (an
    /// illegal move that stood) left; returns how often it has stood.
    fn push_fen(&mut self, text: &str) -> PyResult<usize> {
        let mode = self.h.position().castles().mode();
        let (key, clock, pos) = read_fen(text, mode)?;
        Ok(self.h.push_key(key, clock, pos))
    }

    /// Take back the last move; false when there is none.
    fn pop(&mut self) -> bool {
        self.h.pop()
    }

    fn key(&self) -> PyKey {
        key_to_py(&self.h.key())
    }

    fn key_at(&self, ply: u32) -> PyResult<PyKey> {
        self.h
            .key_at(ply)
            .map(|k| key_to_py(&k))
            .ok_or_else(|| PyIndexError::new_err(ply))
    }

    /// The keys of every position, from ply 0.
    fn position_keys(&self) -> Vec<PyKey> {
        self.h.keys().iter().map(key_to_py).collect()
    }

    /// Plies at which `key` (default: the current position) stood.
    #[pyo3(signature = (key=None))]
    fn occurrences(&self, key: Option<PyKey>) -> PyResult<Vec<u32>> {
        let k = match key {
            Some(t) => key_from_py(&t)?,
            None => self.h.key(),
        };
        Ok(self.h.occurrences(&k).to_vec())
    }

    fn window_start(&self) -> u32 {
        self.h.window_start()
    }

    fn may_repeat_after_move(&self) -> bool {
        self.h.may_repeat_after_move()
    }

    /// The positions that stood twice since the last irreversible move.
    fn doubles(&self) -> Vec<PyKey> {
        self.h.doubles().iter().map(key_to_py).collect()
    }

    /// (uci, plies) of every legal move that makes a third occurrence (9.2.1).
    fn repeating_moves(&self) -> Vec<(String, Vec<u32>)> {
        let pos = self.h.position();
        self.h
            .repeating_moves()
            .into_iter()
            .map(|(m, p)| (uci(pos, m), p))
            .collect()
    }

    /// Plies at which the position after the legal move `text` (UCI) stood.
    fn occurrences_after(&self, text: &str) -> PyResult<Vec<u32>> {
        let m = self.legal(text)?;
        Ok(self.h.occurrences_after(m))
    }

    /// Plies at which the position of `after_fen` stood, reached by a move that is
    /// (`zeroing`) or is not a pawn move or a capture.
    fn occurrences_after_fen(&self, after_fen: &str, zeroing: bool) -> PyResult<Vec<u32>> {
        let mode = self.h.position().castles().mode();
        let (key, _, _) = read_fen(after_fen, mode)?;
        Ok(self.h.occurrences_after_key(&key, zeroing))
    }

    /// The SAN of a legal move given in UCI.
    fn san(&self, text: &str) -> PyResult<String> {
        let m = self.legal(text)?;
        Ok(san(self.h.position(), m))
    }

    /// The automatic ends the position and the counts decide, without the dead test
    /// (Python asks its dead test, such as `remis._core.DeadTest`, in between):
    /// [mate_or_stalemate, fivefold, seventyfive]. Mate and stalemate only where the
    /// history holds the position.
    fn ends(&self, py: Python<'_>) -> PyResult<[Option<Py<PyAny>>; 3]> {
        let last = self.h.position();
        let conv = |e: Option<rules::End>| e.map(|e| end_to_py(py, &e, last)).transpose();
        Ok([
            conv(rules::checkmate_or_stalemate(&self.h))?,
            conv(rules::fivefold(&self.h))?,
            conv(rules::seventyfive_moves(&self.h))?,
        ])
    }

    /// Every correct claim of the player to move (9.2, 9.3), a fifty-move claim needing
    /// `fifty` half-moves.
    #[pyo3(signature = (fifty=100, threefold=true, fifty_moves=true))]
    fn claims(
        &self,
        py: Python<'_>,
        fifty: u32,
        threefold: bool,
        fifty_moves: bool,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let mut out = Vec::new();
        if threefold {
            rules::threefold_claims(&self.h, &mut out);
        }
        if fifty_moves {
            rules::fifty_claims(&self.h, fifty, &mut out);
        }
        out.iter().map(|c| claim_to_py(py, c)).collect()
    }

    /// The verdict on a claim by `white` (or Black) of `kind` (None: either), with the
    /// intended move `text` in SAN or UCI (read as python-chess reads it) or, where the
    /// history does not hold the position, as the FEN after it (`after_fen`, with
    /// `zeroing`: a pawn move or a capture): (reason, kind, article, plies, count, san)
    /// with reason correct, wrong_player, illegal_move or incorrect.
    #[pyo3(signature = (white, kind=None, text=None, after_fen=None, zeroing=false, fifty=100))]
    #[allow(clippy::too_many_arguments)]
    fn claim(
        &self,
        white: bool,
        kind: Option<&str>,
        text: Option<&str>,
        after_fen: Option<&str>,
        zeroing: bool,
        fifty: u32,
    ) -> PyResult<ClaimFacts> {
        let kind = claim_kind(kind)?;
        let claimant = if white { Color::White } else { Color::Black };
        let with_move = text.is_some() || after_fen.is_some();
        let facts = |v: rules::ClaimVerdict, san: Option<String>| {
            let reason = match v.reason {
                ClaimReason::Correct => "correct",
                ClaimReason::WrongPlayer => "wrong_player",
                ClaimReason::Incorrect => "incorrect",
            };
            (
                reason,
                kind_name(v.kind),
                v.article.text(),
                v.plies,
                v.count,
                san,
            )
        };
        if claimant != self.h.turn() {
            // the intended move of a player who does not have the move is not read
            let v = rules::wrong_player(kind, with_move);
            return Ok(facts(v, None));
        }
        let pos = self.h.position();
        let (intended, shown) = match (text, after_fen) {
            (Some(t), _) if self.h.exact() => match intended_move(pos, t) {
                Some(m) => (Some(Intended::of(&self.h, m)), Some(san(pos, m))),
                None => {
                    let k = kind.unwrap_or(ClaimKind::Threefold);
                    let article = rules::claim_article(k, true).text();
                    return Ok(("illegal_move", kind_name(k), article, Vec::new(), 0, None));
                }
            },
            (_, Some(f)) => {
                let (key, _, _) = read_fen(f, pos.castles().mode())?;
                (Some(Intended { key, zeroing }), None)
            }
            (Some(_), None) => {
                return Err(PyValueError::new_err(
                    "the history does not hold this position: give the intended move as after_fen",
                ));
            }
            (None, None) => (None, None),
        };
        let v = rules::rule_on_claim(&self.h, claimant, kind, intended, fifty);
        Ok(facts(v, shown))
    }
}
}

/// A claim's verdict as Python reads it: (reason, kind, article, plies, count, san).
type ClaimFacts = (
    &'static str,
    &'static str,
    &'static str,
    Vec<u32>,
    u32,
    Option<String>,
);

fn kind_name(k: ClaimKind) -> &'static str {
    match k {
        ClaimKind::Threefold => "threefold_repetition",
        ClaimKind::Fifty => "fifty_moves",
    }
}

/// The legal move `text` names, read as SAN, then as UCI (python-chess's order).
fn intended_move(pos: &Chess, text: &str) -> Option<Move> {
    board::parse_san(pos, text).ok().or_else(|| {
        text.parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
    })
}
