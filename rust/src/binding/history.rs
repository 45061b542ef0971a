//! The history of a live game, for `remis.History` (its Python face): the arbiter plays
//! moves one event at a time, and asks the rules after each. Each push works out the
//! automatic end and the claims of the position it leaves ([`Live`]), so that asking
//! for them costs no more than reading them.
//!
//! The arbiter's board is python-chess's, which also holds the positions an illegal
//! move that stood can leave (A.5.4: a pawn on the last rank, the side not to move in
//! check) and shakmaty refuses. Such a position is pushed as FEN: the history then
//! knows its key and its count, and answers no question that needs its moves.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, FromSetup, Move, Position, Role, Square};

use super::dead::CoreDeadTest;
use super::guard::{Located, guard, internal_error};
use super::{claim_to_py, end_to_py};
use crate::board::{self, fen, from_fen, san, uci};
use crate::guarded;
use crate::history::History;
use crate::identity::Key;
use crate::rules::dead::{DeadTest, Material};
use crate::rules::live::Live;
use crate::rules::{self, ClaimKind, ClaimReason, Intended};

/// The half-moves of a fifty-move claim under the current Laws (9.3); the Laws of some
/// dates counted longer, which Python's `remis.rules` asks afresh.
const FIFTY: u32 = 100;

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
    live: Live,
    /// the engine's dead test, shared with its Python face (`remis.EngineDeadTest`) so
    /// that its per-game budget sees every position once; None: material only
    engine: Option<Py<CoreDeadTest>>,
}

impl CoreHistory {
    fn h(&self) -> &History {
        self.live.history()
    }

    /// A legal move of the position held, given in UCI.
    fn legal(&self, text: &str) -> PyResult<Move> {
        let pos = self.h().position();
        if !self.h().exact() {
            return Err(PyValueError::new_err(
                "the history does not hold this position (an illegal move stood)",
            ));
        }
        text.parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .ok_or_else(|| PyValueError::new_err(format!("illegal move {text} in {}", fen(pos))))
    }

    /// The legal move `text` names: UCI where it looks like UCI, else SAN (as the
    /// arbiter reads a move event), None where there is no such legal move.
    fn named(&self, text: &str) -> Option<Move> {
        let pos = self.h().position();
        if !self.h().exact() {
            return None;
        }
        if looks_like_uci(text) {
            return text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(pos).ok());
        }
        board::parse_san(pos, text).ok()
    }

    /// Play the legal move `m` and rule on the position it leaves, with the game's dead
    /// test; a panic there takes the move back and becomes a `RuntimeError`.
    fn play_move(&mut self, py: Python<'_>, m: Move) -> PyResult<usize> {
        let CoreHistory { live, engine } = self;
        let mut guard = match engine {
            Some(e) => Some(e.bind(py).try_borrow_mut()?),
            None => None,
        };
        let test: &mut dyn DeadTest = match guard.as_mut() {
            Some(t) => &mut t.engine,
            None => &mut Material,
        };
        match catch_unwind(AssertUnwindSafe(|| live.push(m, test))) {
            Ok(n) => Ok(n),
            Err(payload) => {
                live.abandon_push();
                if let Some(t) = guard.as_mut() {
                    t.reset();
                }
                let place = || format!("after a move in {}", fen(live.history().position()));
                Err(internal_error("History.push", place, &*payload))
            }
        }
    }
}

/// `text` has the shape of a UCI move (`e2e4`, `e7e8q`): the arbiter reads it as UCI.
fn looks_like_uci(text: &str) -> bool {
    let b = text.as_bytes();
    matches!(b.len(), 4 | 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
        && (b.len() == 4 || matches!(b[4], b'q' | b'r' | b'b' | b'n'))
}

impl Located for CoreHistory {
    /// The ply and the position the history stands at.
    fn place(&self) -> String {
        format!("at ply {} ({})", self.h().ply(), fen(self.h().position()))
    }
}

guarded! {
name = "History";
#[pymethods]
impl CoreHistory {
    /// A history from `fen` (default: the initial position); `chess960` asks for
    /// Chess960 castling; `dead` is the game's dead-position test (None: insufficient
    /// material only), asked after each legal move (and of the start position).
    #[new]
    #[pyo3(signature = (fen=None, chess960=false, dead=None))]
    fn new(
        py: Python<'_>,
        fen: Option<&str>,
        chess960: bool,
        dead: Option<Py<CoreDeadTest>>,
    ) -> PyResult<Self> {
        let pos = match fen {
            None => Some(board::start()),
            Some(f) => from_fen(f, chess960).ok().map(|(p, _)| p),
        };
        let live = match (pos, fen) {
            (Some(p), _) => {
                let mut guard = match &dead {
                    Some(e) => Some(e.bind(py).try_borrow_mut()?),
                    None => None,
                };
                let test: &mut dyn DeadTest = match guard.as_mut() {
                    Some(t) => &mut t.engine,
                    None => &mut Material,
                };
                Live::new(p, FIFTY, test)
            }
            (None, Some(f)) => {
                let mode = if chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                let (key, clock, _) = read_fen(f, mode)?;
                Live::inexact(key, clock, FIFTY)
            }
            (None, None) => unreachable!("no FEN is the start position"),
        };
        Ok(CoreHistory { live, engine: dead })
    }

    #[getter]
    fn ply(&self) -> u32 {
        self.h().ply()
    }

    /// The no-progress count, in half-moves.
    #[getter]
    fn halfmoves(&self) -> u32 {
        self.h().halfmoves()
    }

    /// Whether the history holds the position (false after a position shakmaty refuses).
    #[getter]
    fn exact(&self) -> bool {
        self.h().exact()
    }

    /// Whether White has the move.
    #[getter]
    fn turn(&self) -> bool {
        self.h().turn() == Color::White
    }

    /// Whether the rulings of the position were worked out at the last push (false
    /// where the history does not hold the position: they are the caller's to find).
    #[getter]
    fn ruled(&self) -> bool {
        self.live.now().known
    }

    /// The FEN of the position held (as python-chess writes it).
    fn fen(&self) -> String {
        fen(self.h().position())
    }

    /// Play a legal move given in UCI; returns how often the new position has stood.
    fn push_uci(&mut self, py: Python<'_>, text: &str) -> PyResult<usize> {
        let m = self.legal(text)?;
        self.play_move(py, m)
    }

    /// [`CoreHistory::push_uci`] for a move given as python-chess holds it: its from and
    /// to squares (0 = a1 .. 63 = h8) and its promotion (a piece type, 2 = knight .. 5 =
    /// queen; 0 for none), so that no UCI text is written and read again.
    fn push_squares(
        &mut self,
        py: Python<'_>,
        origin: u32,
        target: u32,
        promotion: u8,
    ) -> PyResult<usize> {
        let h = self.h();
        let m = (h.exact() && origin < 64 && target < 64)
            .then(|| UciMove::Normal {
                from: Square::new(origin),
                to: Square::new(target),
                promotion: Role::try_from(promotion).ok(),
            })
            .and_then(|u| u.to_move(h.position()).ok());
        let Some(m) = m else {
            return Err(PyValueError::new_err(format!(
                "illegal move {origin}-{target} in {}",
                fen(h.position())
            )));
        };
        self.play_move(py, m)
    }

    /// What the last push worked out: False where it did not (the position is not
    /// held: the caller asks afresh), None where the position has no automatic end and
    /// no claim (the usual case, answered without building anything), else (end or
    /// None, claims) as `end` and `claimable` give them.
    fn rulings(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let now = self.live.now();
        if !now.known {
            return Ok(false.into_pyobject(py)?.to_owned().into_any().unbind());
        }
        if now.end.is_none() && now.claims.is_empty() {
            return Ok(py.None());
        }
        Ok((self.end(py)?, self.claimable(py)?)
            .into_pyobject(py)?
            .into_any()
            .unbind())
    }

    /// Play the legal move `text` names (UCI where it looks like UCI, else SAN) and
    /// return its UCI and the automatic end it brought, if any (`ValueError` where no
    /// legal move is named).
    fn play(&mut self, py: Python<'_>, text: &str) -> PyResult<(String, Option<Py<PyAny>>)> {
        let Some(m) = self.named(text) else {
            return Err(PyValueError::new_err(format!(
                "{text:?} is not a legal move in {}",
                fen(self.h().position())
            )));
        };
        let played = uci(self.h().position(), m);
        self.play_move(py, m)?;
        Ok((played, self.end(py)?))
    }

    /// Play the legal move `text` names (UCI where it looks like UCI, else SAN) and
    /// return its UCI and whether the position it leaves has an automatic end or a
    /// claim, or is not ruled (`rulings` then says which); None, with nothing played,
    /// where no legal move is named.  The live arbiter's move in one call.
    fn play_legal(&mut self, py: Python<'_>, text: &str) -> PyResult<Option<(String, bool)>> {
        let Some(m) = self.named(text) else {
            return Ok(None);
        };
        let played = uci(self.h().position(), m);
        self.play_move(py, m)?;
        let now = self.live.now();
        Ok(Some((played, !now.known || now.end.is_some() || !now.claims.is_empty())))
    }

    /// The UCI of the legal move `text` names (UCI where it looks like UCI, else SAN),
    /// or None.
    fn legal_uci(&self, text: &str) -> Option<String> {
        self.named(text).map(|m| uci(self.h().position(), m))
    }

    /// Record the position, given as FEN, that a move the history cannot play (an
    /// illegal move that stood) left; returns how often it has stood.
    fn push_fen(&mut self, text: &str) -> PyResult<usize> {
        let mode = self.h().position().castles().mode();
        let (key, clock, pos) = read_fen(text, mode)?;
        Ok(self.live.push_key(key, clock, pos))
    }

    /// Take back the last move; false when there is none.
    fn pop(&mut self) -> bool {
        self.live.pop()
    }

    fn key(&self) -> PyKey {
        key_to_py(&self.h().key())
    }

    fn key_at(&self, ply: u32) -> PyResult<PyKey> {
        self.h()
            .key_at(ply)
            .map(|k| key_to_py(&k))
            .ok_or_else(|| PyIndexError::new_err(ply))
    }

    /// The keys of every position, from ply 0.
    fn position_keys(&self) -> Vec<PyKey> {
        self.h().keys().iter().map(key_to_py).collect()
    }

    /// Plies at which `key` (default: the current position) stood.
    #[pyo3(signature = (key=None))]
    fn occurrences(&self, key: Option<PyKey>) -> PyResult<Vec<u32>> {
        let k = match key {
            Some(t) => key_from_py(&t)?,
            None => self.h().key(),
        };
        Ok(self.h().occurrences(&k).to_vec())
    }

    /// How often the current position has stood.
    fn count(&self) -> usize {
        self.h().current_occurrences().len()
    }

    fn window_start(&self) -> u32 {
        self.h().window_start()
    }

    fn may_repeat_after_move(&self) -> bool {
        self.h().may_repeat_after_move()
    }

    /// The positions that stood twice since the last irreversible move.
    fn doubles(&self) -> Vec<PyKey> {
        self.h().doubles().iter().map(key_to_py).collect()
    }

    /// (uci, plies) of every legal move that makes a third occurrence (9.2.1).
    fn repeating_moves(&self) -> Vec<(String, Vec<u32>)> {
        let pos = self.h().position();
        self.h()
            .repeating_moves()
            .into_iter()
            .map(|(m, p)| (uci(pos, m), p))
            .collect()
    }

    /// Plies at which the position after the legal move `text` (UCI) stood.
    fn occurrences_after(&self, text: &str) -> PyResult<Vec<u32>> {
        let m = self.legal(text)?;
        Ok(self.h().occurrences_after(m))
    }

    /// Plies at which the position of `after_fen` stood, reached by a move that is
    /// (`zeroing`) or is not a pawn move or a capture.
    fn occurrences_after_fen(&self, after_fen: &str, zeroing: bool) -> PyResult<Vec<u32>> {
        let mode = self.h().position().castles().mode();
        let (key, _, _) = read_fen(after_fen, mode)?;
        Ok(self.h().occurrences_after_key(&key, zeroing))
    }

    /// The SAN of a legal move given in UCI.
    fn san(&self, text: &str) -> PyResult<String> {
        let m = self.legal(text)?;
        Ok(san(self.h().position(), m))
    }

    /// The automatic end the last push found (mate, stalemate, the game's dead test,
    /// fivefold, seventy-five moves, in that order), or None; see `ruled`.
    fn end(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let last = self.h().position();
        self.live
            .now()
            .end
            .as_ref()
            .map(|e| end_to_py(py, e, last))
            .transpose()
    }

    /// Every correct claim of the player to move that the last push found (9.2, and
    /// 9.3 with 100 half-moves); see `ruled`.
    fn claimable(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.live
            .now()
            .claims
            .iter()
            .map(|c| claim_to_py(py, c))
            .collect()
    }

    /// The automatic ends the position and the counts decide, without the dead test
    /// (Python asks its dead test, such as `remis._core.DeadTest`, in between):
    /// `[mate_or_stalemate, fivefold, seventyfive]`. Mate and stalemate only where the
    /// history holds the position.
    fn ends(&self, py: Python<'_>) -> PyResult<[Option<Py<PyAny>>; 3]> {
        let h = self.h();
        let last = h.position();
        let conv = |e: Option<rules::End>| e.map(|e| end_to_py(py, &e, last)).transpose();
        Ok([
            conv(rules::checkmate_or_stalemate(h))?,
            conv(rules::fivefold(h))?,
            conv(rules::seventyfive_moves(h))?,
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
            rules::threefold_claims(self.h(), &mut out);
        }
        if fifty_moves {
            rules::fifty_claims(self.h(), fifty, &mut out);
        }
        out.iter().map(|c| claim_to_py(py, c)).collect()
    }

    /// The verdict on a claim by `white` (or Black) of `kind` (None: either), with the
    /// intended move `text` in SAN or UCI (read as python-chess reads it) or, where the
    /// history does not hold the position, as the FEN after it (`after_fen`, with
    /// `zeroing`: a pawn move or a capture): (reason, kind, article, plies, count, san)
    /// with reason `correct`, `wrong_player`, `illegal_move` or `incorrect`.
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
        if claimant != self.h().turn() {
            // the intended move of a player who does not have the move is not read
            let v = rules::wrong_player(kind, with_move);
            return Ok(facts(v, None));
        }
        let h = self.h();
        let pos = h.position();
        let (intended, shown) = match (text, after_fen) {
            (Some(t), _) if h.exact() => match intended_move(pos, t) {
                Some(m) => (Some(Intended::of(h, m)), Some(san(pos, m))),
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
        let v = rules::rule_on_claim(h, claimant, kind, intended, fifty);
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
