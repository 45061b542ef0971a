//! The Python face of the batch and the history: games read and ruled on in the core,
//! returned as plain tuples of facts (Python builds rulings and sentences from them), and
//! the history the live arbiter keeps.
//!
//! The live history is in [`history`], the per-ply dead test of a live game in [`dead`].
//!
//! No panic crosses into Python: a panic while ruling on a game becomes that game's
//! error, and the batch goes on; elsewhere it becomes `remis.InternalError` saying where
//! the input stood ([`guard`]).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::rc::Rc;
use std::sync::Arc;

mod dead;
pub mod guard;
mod history;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::board::fen;
use crate::game::{
    ClaimMode, Count, DeadMode, GameError, GameFacts, GameLaws, LawsByDate, Options, Ruler,
};
use crate::guarded;
use crate::pgn::{GameText, Splitter};
use crate::rules::{Claim, DeadVerdict, End, EndKind, EndRule};
use crate::unwinnable::py::signal_interrupt;
use crate::unwinnable::{Answer, Verdict};
use guard::{Located, guard, panic_text};

/// Register the batch and history functions on the module.
///
/// # Errors
///
/// Python's error where a name cannot be added to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InternalError", m.py().get_type::<guard::InternalError>())?;
    m.add_function(wrap_pyfunction!(guard::_panic_at, m)?)?;
    m.add_class::<GameReader>()?;
    m.add_class::<GameLines>()?;
    m.add_class::<GameSplitter>()?;
    m.add_class::<history::CoreHistory>()?;
    m.add_class::<dead::CoreDeadTest>()?;
    m.add(
        "FULL_RUNS_PER_STRUCTURE",
        crate::rules::dead::FULL_RUNS_PER_STRUCTURE,
    )?;
    m.add_function(wrap_pyfunction!(rule_text, m)?)?;
    m.add_function(wrap_pyfunction!(history::position_key, m)?)?;
    m.add_function(wrap_pyfunction!(dead::material, m)?)?;
    Ok(())
}

/// A Python binary file object read from Rust (compressed files and stdin: Python
/// decompresses, so a damaged stream is reported as it always was).
struct PyStream(Py<PyAny>);

impl Read for PyStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .0
                // read1: what one read of the raw stream gives, so that the data before
                // a damaged part arrives before the error does
                .call_method1(py, "read1", (buf.len(),))
                // the Python error travels inside: see `stream_error`
                .map_err(io::Error::other)?;
            let bytes = data.bind(py).cast::<PyBytes>().map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidData, "the stream did not give bytes")
            })?;
            let b = bytes.as_bytes();
            buf[..b.len()].copy_from_slice(b);
            Ok(b.len())
        })
    }
}

/// The error a damaged stream gives, saying after which game and at which byte it
/// begins. A Python stream's own error keeps its class (`CorruptInput`, an `OSError`)
/// with the place added; any other Python exception (`KeyboardInterrupt`) goes on as it
/// was raised.
fn stream_error(py: Python<'_>, e: io::Error, last_index: u64, last_end: u64) -> PyErr {
    let place = format!("(after game {last_index}, byte {last_end} of the stream)");
    let Some(inner) = e.get_ref().and_then(|r| r.downcast_ref::<PyErr>()) else {
        return PyOSError::new_err(format!("{e} {place}"));
    };
    if !inner.is_instance_of::<PyOSError>(py) {
        return inner.clone_ref(py);
    }
    let text = inner
        .value(py)
        .str()
        .map_or_else(|_| "read error".to_owned(), |s| s.to_string());
    PyErr::from_type(inner.get_type(py), format!("{text} {place}"))
}

/// The Laws of a game by its date, asked of a Python callable: `laws(date)` gives
/// `(automatic_ends, count)`, `count(placement)` (None: 50 everywhere) the moves by each
/// player a fifty-move claim needs with the units of a FEN placement.
fn laws_by_date(laws: Py<PyAny>) -> LawsByDate {
    LawsByDate(Arc::new(move |date: Option<&str>| {
        Python::attach(|py| {
            let (automatic, count): (bool, Option<Py<PyAny>>) = laws
                .call1(py, (date,))
                .and_then(|out| out.extract(py))
                // a bug in the caller's table: the game's error, not a guess of its Laws
                .unwrap_or_else(|e| panic!("the Laws of the date {date:?}: {e}"));
            let fifty = count.map(|count| {
                Rc::new(move |pos: &Chess| {
                    Python::attach(|py| {
                        let placement = pos.board().to_string();
                        let moves: u32 = count
                            .call1(py, (placement.as_str(),))
                            .and_then(|m| m.extract(py))
                            .unwrap_or_else(|e| panic!("the 9.3 count of {placement}: {e}"));
                        2 * moves
                    })
                }) as Count
            });
            GameLaws {
                rule: if automatic {
                    EndRule::All
                } else {
                    EndRule::PositionOnly
                },
                fifty,
            }
        })
    }))
}

#[allow(clippy::too_many_arguments)]
fn options(
    claims: &str,
    last_position: bool,
    dead: &str,
    rule: &str,
    fifty: u32,
    time_forfeit: bool,
    laws: Option<Py<PyAny>>,
    engine_nodes: Option<u64>,
    engine_seconds: Option<f64>,
) -> PyResult<Options> {
    Ok(Options {
        claims: match claims {
            "all" => ClaimMode::All,
            "first" => ClaimMode::First,
            "none" => ClaimMode::None,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "claims must be all, first or none, not {claims:?}"
                )));
            }
        },
        last_position,
        dead: match dead {
            "engine" => DeadMode::Engine,
            "quick" => DeadMode::Quick,
            "material" => DeadMode::Material,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "dead must be engine, quick or material, not {dead:?}"
                )));
            }
        },
        rule: match rule {
            "all" => EndRule::All,
            "position" => EndRule::PositionOnly,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "rule must be all or position, not {rule:?}"
                )));
            }
        },
        fifty,
        laws: laws.map(laws_by_date),
        time_forfeit,
        record: false,
        engine_nodes,
        engine_seconds,
        interrupt: None,
    })
}

/// Game texts from a PGN source: a stream cut into games by the core, or games already
/// cut (by a [`GameSplitter`], handed to a worker in a batch).
enum Source {
    Stream {
        splitter: Box<Splitter<Box<dyn BufRead + Send + Sync>>>,
        /// the last game read whole and where its text ended, to say where damage begins
        last_index: u64,
        last_end: u64,
    },
    Listed(std::vec::IntoIter<GameText>),
}

impl Source {
    /// `source` is a path (plain files are read by the core, from byte `start` to the
    /// first game starting at or after `end`), bytes, a binary file object (compressed
    /// data, stdin) or a list of games as a [`GameSplitter`] gives them.
    fn open(
        source: &Bound<'_, PyAny>,
        start: u64,
        end: Option<u64>,
        first_index: u64,
    ) -> PyResult<Source> {
        if let Ok(list) = source.cast::<PyList>() {
            let games = list
                .iter()
                .map(|g| game_from_py(&g))
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(Source::Listed(games.into_iter()));
        }
        let reader: Box<dyn BufRead + Send + Sync> = if let Ok(path) = source.extract::<String>() {
            let mut f = File::open(&path).map_err(|e| {
                PyOSError::new_err((e.raw_os_error().unwrap_or(0), e.to_string(), path.clone()))
            })?;
            if start > 0 {
                f.seek(SeekFrom::Start(start))?;
            }
            Box::new(BufReader::with_capacity(1 << 16, f))
        } else if let Ok(data) = source.cast::<PyBytes>() {
            Box::new(io::Cursor::new(data.as_bytes().to_vec()))
        } else {
            Box::new(BufReader::with_capacity(
                1 << 16,
                PyStream(source.clone().unbind()),
            ))
        };
        Ok(Source::Stream {
            splitter: Box::new(Splitter::new(reader, start, end, first_index)),
            last_index: first_index - 1,
            last_end: start,
        })
    }

    /// The next game; a damaged stream is an `OSError` that says after which game (the
    /// last read whole) and at which byte it begins.
    fn next(&mut self) -> PyResult<Option<GameText>> {
        match self {
            Source::Listed(games) => Ok(games.next()),
            Source::Stream {
                splitter,
                last_index,
                last_end,
            } => match splitter.next_game() {
                Ok(Some(g)) => {
                    *last_index = g.index;
                    *last_end = splitter.consumed();
                    Ok(Some(g))
                }
                Ok(None) => Ok(None),
                Err(e) => Err(Python::attach(|py| {
                    stream_error(py, e, *last_index, *last_end)
                })),
            },
        }
    }

    fn position(&self) -> u64 {
        match self {
            Source::Stream { splitter, .. } => splitter.consumed(),
            Source::Listed(_) => 0,
        }
    }

    /// Hand back the text of a game read, for the next game to fill.
    fn recycle(&mut self, g: GameText) {
        if let Source::Stream { splitter, .. } = self {
            splitter.recycle(g.text);
        }
    }
}

impl Located for Source {
    /// After which game of the stream (or list) the reader stands, and at which byte.
    fn place(&self) -> String {
        match self {
            Source::Stream {
                splitter,
                last_index,
                ..
            } => format!(
                "after game {last_index}, byte {} of the stream",
                splitter.consumed()
            ),
            Source::Listed(games) => match games.as_slice().first() {
                Some(g) => format!("before game {} (byte {})", g.index, g.offset),
                None => "after the last game of the list".to_owned(),
            },
        }
    }
}

/// A game as Python holds it between the splitter and a reader: `(index, offset, text,
/// unclosed_comment, tags_only, too_long)`.
type PyGame<'py> = (u64, u64, Bound<'py, PyBytes>, bool, Option<u64>, bool);

fn game_to_py<'py>(py: Python<'py>, g: &GameText) -> PyGame<'py> {
    (
        g.index,
        g.offset,
        PyBytes::new(py, &g.text),
        g.unclosed_comment,
        g.tags_only,
        g.too_long,
    )
}

fn game_from_py(g: &Bound<'_, PyAny>) -> PyResult<GameText> {
    let (index, offset, text, unclosed_comment, tags_only, too_long): PyGame<'_> = g.extract()?;
    Ok(GameText {
        index,
        offset,
        text: text.as_bytes().to_vec(),
        unclosed_comment,
        tags_only,
        too_long,
    })
}

/// A PGN source cut into games, not ruled on: `(index, offset, text, unclosed_comment,
/// tags_only, too_long)` for each, as a [`GameReader`] reads them back (the audit hands
/// a stream's games to its workers in batches). `source` as for [`GameReader`].
#[pyclass(module = "remis._core")]
pub struct GameSplitter {
    source: Source,
}

impl Located for GameSplitter {
    fn place(&self) -> String {
        self.source.place()
    }
}

guarded! {
#[pymethods]
impl GameSplitter {
    #[new]
    #[pyo3(signature = (source, *, start=0, end=None, first_index=1))]
    fn new(
        source: &Bound<'_, PyAny>,
        start: u64,
        end: Option<u64>,
        first_index: u64,
    ) -> PyResult<Self> {
        Ok(GameSplitter {
            source: Source::open(source, start, end, first_index)?,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<PyGame<'py>>> {
        Ok(self.source.next()?.map(|g| game_to_py(py, &g)))
    }

    /// Bytes of the stream read so far.
    fn position(&self) -> u64 {
        self.source.position()
    }
}
}

/// Games read from a PGN source and ruled on, one tuple of facts per game. `source` is
/// a path, bytes, a binary file object or a list of games from a [`GameSplitter`]
/// (see [`Source::open`]); `texts` adds each game, as a [`GameSplitter`] gives it, to
/// its facts (to rule on it again).
#[pyclass(module = "remis._core")]
pub struct GameReader {
    source: Source,
    ruler: Ruler,
    fens: bool,
    texts: bool,
}

impl Located for GameReader {
    fn place(&self) -> String {
        self.source.place()
    }
}

guarded! {
#[pymethods]
impl GameReader {
    #[new]
    #[pyo3(signature = (source, *, start=0, end=None, first_index=1, claims="all", last_position=true, dead="engine", rule="all", fifty=100, time_forfeit=true, fens=false, texts=false, laws=None, engine_nodes=None, engine_seconds=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        source: &Bound<'_, PyAny>,
        start: u64,
        end: Option<u64>,
        first_index: u64,
        claims: &str,
        last_position: bool,
        dead: &str,
        rule: &str,
        fifty: u32,
        time_forfeit: bool,
        fens: bool,
        texts: bool,
        laws: Option<Py<PyAny>>,
        engine_nodes: Option<u64>,
        engine_seconds: Option<f64>,
    ) -> PyResult<Self> {
        let opts = options(
            claims,
            last_position,
            dead,
            rule,
            fifty,
            time_forfeit,
            laws,
            engine_nodes,
            engine_seconds,
        )?;
        Ok(GameReader {
            source: Source::open(source, start, end, first_index)?,
            ruler: Ruler::new(opts),
            fens,
            texts,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Some((g, facts)) = self.next_facts()? else {
            return Ok(None);
        };
        let game = self.texts.then_some(&g);
        let out = facts_to_py(py, &facts, self.fens, game).map(Some);
        self.source.recycle(g);
        out
    }

    /// Bytes of the stream read so far.
    fn position(&self) -> u64 {
        self.source.position()
    }
}
}

impl GameReader {
    fn next_facts(&mut self) -> PyResult<Option<(GameText, GameFacts)>> {
        let Some(g) = self.source.next()? else {
            return Ok(None);
        };
        let facts = rule_caught(&mut self.ruler, &g);
        Ok(Some((g, facts)))
    }
}

/// The lines of `remis game --json` from a [`GameReader`]: a game with nothing to word,
/// or (given Python's templates, `words`) only a checkmate, a stalemate, claims or a
/// common flag fall to word, comes as its line (a `str`, see [`crate::game_json`]),
/// naming `file` first where it is given; any other as the reader's facts, for Python
/// to word.
#[pyclass(module = "remis._core")]
pub struct GameLines {
    reader: Py<GameReader>,
    file: Option<String>,
    words: Option<crate::game_json::Words>,
}

#[pymethods]
impl GameLines {
    #[new]
    #[pyo3(signature = (reader, *, file=None, words=None))]
    fn new(
        reader: Py<GameReader>,
        file: Option<String>,
        words: Option<crate::game_json::Words>,
    ) -> Self {
        GameLines {
            reader,
            file,
            words,
        }
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Guarded as the other entry points are; by hand, since where it stands is the
    /// reader's, which only a borrow with the GIL can ask.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        const NAME: &str = "GameLines.__next__";
        let mut reader = self.reader.borrow_mut(py);
        let file = self.file.as_deref();
        let words = self.words.as_ref();
        guard::catch(NAME, || next_line(py, &mut reader, file, words))
            .unwrap_or_else(|p| Err(guard::internal_error(NAME, || reader.source.place(), &*p)))
    }
}

/// The next game of `reader` as [`GameLines`] gives it.
fn next_line(
    py: Python<'_>,
    reader: &mut GameReader,
    file: Option<&str>,
    words: Option<&crate::game_json::Words>,
) -> PyResult<Option<Py<PyAny>>> {
    let Some((g, facts)) = reader.next_facts()? else {
        return Ok(None);
    };
    let out = match crate::game_json::json_line(&facts, file, words) {
        Some(line) => Ok(Some(PyString::new(py, &line).into_any().unbind())),
        None => {
            let game = reader.texts.then_some(&g);
            facts_to_py(py, &facts, reader.fens, game).map(Some)
        }
    };
    reader.source.recycle(g);
    out
}

/// Rule on one game, a panic becoming the game's error.
fn rule_caught(ruler: &mut Ruler, g: &GameText) -> GameFacts {
    match guard::catch("GameReader.__next__", || ruler.rule(g)) {
        Ok(f) => f,
        Err(p) => {
            // the engine's per-game state may be torn: start the next game afresh
            *ruler = Ruler::new(ruler.opts.clone());
            let headers = crate::pgn::read_tags(&g.text).0;
            GameFacts {
                error: Some(GameError {
                    ply: 0,
                    message: format!(
                        "internal error in the core (please report it): {}",
                        panic_text(&*p)
                    ),
                    offset: g.offset,
                }),
                ..GameFacts::unplayed(g, headers, "standard".into())
            }
        }
    }
}

/// Rule on the text of one game (`remis claim`, the service, tests).
#[pyfunction]
#[pyo3(signature = (text, *, index=1, offset=0, claims="all", last_position=true, dead="engine", rule="all", fifty=100, time_forfeit=true, fens=true, moves=false, unclosed_comment=false, tags_only=None, too_long=false, laws=None, engine_nodes=None, engine_seconds=None))]
#[allow(clippy::too_many_arguments)]
fn rule_text(
    py: Python<'_>,
    text: &[u8],
    index: u64,
    offset: u64,
    claims: &str,
    last_position: bool,
    dead: &str,
    rule: &str,
    fifty: u32,
    time_forfeit: bool,
    fens: bool,
    moves: bool,
    unclosed_comment: bool,
    tags_only: Option<u64>,
    too_long: bool,
    laws: Option<Py<PyAny>>,
    engine_nodes: Option<u64>,
    engine_seconds: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let mut opts = options(
        claims,
        last_position,
        dead,
        rule,
        fifty,
        time_forfeit,
        laws,
        engine_nodes,
        engine_seconds,
    )?;
    opts.record = moves;
    // a service worker's cancel signal (or Ctrl-C) stops the engine's questions
    let (interrupt, signal) = signal_interrupt();
    opts.interrupt = Some(interrupt);
    let g = GameText {
        index,
        offset,
        text: text.to_vec(),
        unclosed_comment,
        tags_only,
        too_long,
    };
    let facts = guard(
        "rule_text",
        || format!("on game {index} (byte {offset})"),
        || Ok(Ruler::new(opts).rule(&g)),
    )?;
    if let Some(e) = signal.take() {
        return Err(e);
    }
    facts_to_py(py, &facts, fens, None)
}

fn color(c: Color) -> bool {
    c == Color::White
}

/// A verdict as the engine's binding gives it (`remis.unwinnable` words it), with the
/// FEN of its position and whether that is a Chess960 one (the words of a "cannot"
/// name squares; a mate found needs no FEN, and gets `None`).
fn verdict_to_py(py: Python<'_>, v: &Verdict, pos: &Chess) -> PyResult<Py<PyAny>> {
    let mode = pos.castles().mode();
    Ok((
        crate::unwinnable::py::fields(py, v, pos, mode),
        (!matches!(v.answer, Answer::Can(_))).then(|| fen(pos)),
        mode == CastlingMode::Chess960,
    )
        .into_pyobject(py)?
        .into_any()
        .unbind())
}

/// An end's kind, its material (insufficient material) and its proof (a dead
/// position: White's verdict, then Black's), as Python reads them (`remis.facts`).
pub(crate) type KindFacts = (&'static str, Option<String>, Option<Py<PyAny>>);

/// A dead test's verdict on `at` as the facts of its end.
pub(crate) fn dead_to_py(py: Python<'_>, v: &DeadVerdict, at: &Chess) -> PyResult<KindFacts> {
    Ok(match v {
        DeadVerdict::Dead { white, black } => (
            "dead_position",
            None,
            Some(
                (verdict_to_py(py, white, at)?, verdict_to_py(py, black, at)?)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind(),
            ),
        ),
        DeadVerdict::Material(m) => ("insufficient_material", Some(m.clone()), None),
    })
}

pub(crate) fn end_to_py(py: Python<'_>, e: &End, at: &Chess) -> PyResult<Py<PyAny>> {
    let (kind, material, proof): KindFacts = match &e.kind {
        EndKind::Checkmate => ("checkmate", None, None),
        EndKind::Stalemate => ("stalemate", None, None),
        EndKind::InsufficientMaterial(m) => ("insufficient_material", Some(m.clone()), None),
        EndKind::DeadPosition(v) => dead_to_py(py, v, at)?,
        EndKind::FivefoldRepetition => ("fivefold_repetition", None, None),
        EndKind::SeventyFiveMoves => ("seventyfive_moves", None, None),
    };
    Ok((
        e.ply,
        kind,
        e.article(),
        e.plies.clone(),
        color(e.mover),
        e.count,
        material,
        proof,
    )
        .into_pyobject(py)?
        .into_any()
        .unbind())
}

pub(crate) fn claim_to_py(py: Python<'_>, c: &Claim) -> PyResult<Py<PyAny>> {
    Ok((
        c.ply,
        color(c.player),
        c.article.text(),
        c.mv.clone(),
        c.plies.clone(),
        c.moves.clone(),
        c.count,
        c.needed,
        c.board.clone(),
    )
        .into_pyobject(py)?
        .into_any()
        .unbind())
}

fn facts_to_py(
    py: Python<'_>,
    f: &GameFacts,
    fens: bool,
    game: Option<&GameText>,
) -> PyResult<Py<PyAny>> {
    // a dict, as every reader of the facts uses them (a tag given twice: its last value)
    let headers = PyDict::new(py);
    for (n, v) in &f.headers {
        headers.set_item(n, v)?;
    }
    let end = match (&f.end, &f.end_position) {
        (Some(e), Some(at)) => Some(end_to_py(py, e, at)?),
        _ => None,
    };
    let claims = PyList::empty(py);
    for c in &f.claims {
        claims.append(claim_to_py(py, c)?)?;
    }
    let error = f
        .error
        .as_ref()
        .map(|e| (e.ply, e.message.clone(), e.offset));
    let flag = match (&f.flag, &f.last) {
        (Some(fl), Some(last)) => Some((
            color(fl.player),
            fl.verdict
                .as_ref()
                .map(|v| verdict_to_py(py, v, last))
                .transpose()?,
        )),
        _ => None,
    };
    let (start_fen, last_fen) = if fens {
        (f.start.as_ref().map(fen), f.last.as_ref().map(fen))
    } else {
        (None, None)
    };
    let items: Vec<Py<PyAny>> = vec![
        f.index.into_pyobject(py)?.into_any().unbind(),
        f.offset.into_pyobject(py)?.into_any().unbind(),
        headers.into_any().unbind(),
        f.variant.clone().into_pyobject(py)?.into_any().unbind(),
        f.plies.into_pyobject(py)?.into_any().unbind(),
        end.into_pyobject(py)?.into_any().unbind(),
        claims.into_any().unbind(),
        error.into_pyobject(py)?.into_any().unbind(),
        flag.into_pyobject(py)?.into_any().unbind(),
        start_fen.into_pyobject(py)?.into_any().unbind(),
        last_fen.into_pyobject(py)?.into_any().unbind(),
        f.moves.clone().into_pyobject(py)?.into_any().unbind(),
        f.comments.clone().into_pyobject(py)?.into_any().unbind(),
        game.map(|g| game_to_py(py, g))
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        f.nodes.into_pyobject(py)?.into_any().unbind(),
        pyo3::types::PyBool::new(py, f.cut)
            .to_owned()
            .into_any()
            .unbind(),
        // the start's move number and side to move: where a ply stands in move numbers
        f.start
            .as_ref()
            .map(|p| (p.fullmoves().get(), color(p.turn())))
            .into_pyobject(py)?
            .into_any()
            .unbind(),
    ];
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}
