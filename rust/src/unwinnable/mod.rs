//! Can this player still checkmate by some sequence of legal moves?
//!
//! Both sides may cooperate (a helpmate counts), so the answer decides the dead
//! position (5.2.2: neither can) and the flag fall (6.9). A `Can` carries a line
//! that replays to the mate; a `Cannot` is a proof; `Unknown` means the budget
//! (or quick mode) could not decide.
//!
//! The stages, cheapest first. *Material* (a bare king, K+N v K, ...). *Forced
//! moves*: while there is one legal move it is played (a mate, a stalemate, too
//! little material or a cycle may end it). The *static proof* of `blocked.rs`,
//! from the semi-static reach analysis of `reach.rs`: no check is ever possible,
//! or the loser's king always keeps a flight square. Quick mode then proves, if
//! it can, that every line of seven plies ends the game (or leaves too little
//! material; the line of quiet king steps is tried first, and most positions
//! stop there), tries the static proof after every evasion from check, searches
//! a hundred nodes among four units, and visits a few thousand positions where
//! only pawns and bishops stand beside a king that cannot move or behind a
//! closed structure; it stops there.
//! Full mode lets its searches take turns with slices of nodes that double each
//! round: steered helpmate searches (`search.rs`: iterative deepening in which
//! the moves toward a mating corner are free, one toward each corner; after the
//! first round also toward each square where the reach analysis leaves a mate
//! possible, when they are few), the visit of every reachable position best
//! first by novelty (`visit.rs`), which finds deep narrow mates and proves
//! "cannot" when it runs out of positions, and, where some pieces can never
//! take part in a mate, the same visit holding them still. After the first
//! round comes the static proof after every legal move with its forced
//! replies. A steered search that ends an iteration without cutting a line
//! short proves "cannot" too; a long helpmate line has its detours cut.
//! Budgets are counted in nodes (positions generated), so a verdict never
//! depends on the machine's load; a deadline and an interrupt test are opt-ins.

pub(crate) mod bits;
mod blocked;
mod budget;
mod checks;
mod hunt;
mod key;
mod lines;
mod material;
pub mod py;
mod reach;
mod search;
#[cfg(test)]
mod testing;
pub mod valid;
mod visit;

use shakmaty::{Chess, Color, Move, Position};

pub use blocked::{StaticKind, StaticProof};
pub use budget::{Budget, Interrupt, Stop};
pub use hunt::Hunt;
pub use lines::{Ends, ForcedEnd};
pub use material::Material;

use budget::Counter;
use checks::king_can_move;
use lines::{Forced, every_line_ends, play_forced, shorten};
use search::{Helpmate, Outcome, Steer};
use visit::Visit;

/// How hard to look: `Quick` is the cheap test run after every ply; `Full` decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Quick,
    Full,
}

/// Why the player cannot mate (Python turns it into words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Too little material for any mate (K v K, K+B v K, ...).
    Material(Material),
    /// The game is over already: a stalemate, or the would-be winner is mated.
    GameOver { stalemate: bool },
    /// The forced moves (the verdict's `forced`) end so.
    Forced(ForcedEnd),
    /// The static proof (after the forced moves).
    Static(StaticProof),
    /// The static proof, or an end of the game, after every legal move and its
    /// forced replies: how many moves end each way, and one move with its
    /// replies that leads to a static proof (if any).
    AfterEveryMove {
        counts: AfterCounts,
        example: Option<(Vec<Move>, StaticProof)>,
    },
    /// Every line of at most `plies` plies ends.
    Lines { plies: u32, ends: Ends },
    /// Every reachable position was visited (`positions` of them): no mate.
    Exhausted { positions: u64 },
}

/// By how the forced replies after each legal move end (see [`Reason::AfterEveryMove`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AfterCounts {
    pub stalemate: u32,
    pub mated: u32,
    pub material: u32,
    pub cycle: u32,
    pub blocked: u32,
}

/// The stage that decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Material,
    Forced,
    Static,
    /// A steered helpmate search found the mate.
    Search,
    /// The breadth-first visit found the mate.
    Visit,
    /// A search or visit ran out of positions (or every short line ends).
    Exhaustive,
    Undecided,
}

impl Method {
    /// The stage's name, as the verdicts' `method` field gives it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Method::Material => "material",
            Method::Forced => "forced",
            Method::Static => "static",
            Method::Search => "search",
            Method::Visit => "visit",
            Method::Exhaustive => "exhaustive",
            Method::Undecided => "undecided",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A helpmate exists; the line replays to mate from the position.
    Can(Vec<Move>),
    /// Proved impossible.
    Cannot(Reason),
    /// Undecided within the budget (or by quick mode).
    Unknown,
}

/// The answer to "can this side still checkmate?", how it was found and what it cost.
#[must_use = "a verdict unread is a question asked for nothing"]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub answer: Answer,
    pub nodes: u64,
    pub method: Method,
    /// The forced moves played before the deciding stage (a `Can`'s line
    /// starts with them).
    pub forced: Vec<Move>,
    /// Why an `Unknown` stopped.
    pub stop: Option<Stop>,
}

/// The default node budget of full mode.
pub const FULL_NODES: u64 = 6_000_000;
/// Quick mode's budget for its proof that every short line ends.
pub const QUICK_NODES: u64 = 4096;
/// Quick mode's helpmate search where at most four units stand.
const QUICK_SEARCH: u64 = 100;
/// The first slice of each search in full mode's turns (it doubles each round): many
/// helpmates of real games take a steered search over 128 nodes, and a smaller first
/// slice made them wait for the other searches and the visits, whose set-up costs more.
const FIRST_SLICE: u64 = 256;
/// Helpmate lines longer than this (in plies) get their detours cut.
const LONG_LINE: usize = 40;
/// At most this many squares where a mate could happen get a search each.
const MATING_SQUARES: u32 = 4;
/// Quick mode's visit of the reachable positions where a king cannot move.
const QUICK_VISIT: u64 = 16384;
/// Quick mode's visit where pawns are rammed and no file has a pawn of one side alone.
const QUICK_VISIT_CLOSED: u64 = 4096;
/// The plies of quick mode's proof that every line ends.
const QUICK_PLIES: u32 = 7;
/// Forced moves followed at most (at the root, and after each move).
const FORCED_PLIES: usize = 100;
/// Forced moves quick mode follows at most.
const QUICK_FORCED_PLIES: usize = 4;

impl Verdict {
    fn new(answer: Answer, method: Method, nodes: u64, forced: &[Move]) -> Verdict {
        let answer = match answer {
            Answer::Can(line) => Answer::Can(forced.iter().copied().chain(line).collect()),
            other => other,
        };
        Verdict {
            answer,
            nodes,
            method,
            forced: forced.to_vec(),
            stop: None,
        }
    }

    /// A mate found by `method` (after the `forced` moves), the line as found:
    /// [`readable`] cuts the detours of a long one where a person reads it.
    fn mate(line: Vec<Move>, method: Method, counter: &Counter, forced: &[Move]) -> Verdict {
        Verdict::new(Answer::Can(line), method, counter.nodes, forced)
    }

    fn unknown(nodes: u64, stop: Stop, forced: &[Move]) -> Verdict {
        Verdict {
            answer: Answer::Unknown,
            nodes,
            method: Method::Undecided,
            forced: forced.to_vec(),
            stop: Some(stop),
        }
    }
}

/// `v` (an answer on `pos`) with the detours of a long helpmate line cut, for a
/// person to read; the moves tried count in its nodes. A verdict whose line
/// nobody reads (the dead test's "not dead") is left as found: cutting costs
/// more than many searches.
pub fn readable(pos: &Chess, v: &mut Verdict) {
    let Answer::Can(line) = &mut v.answer else {
        return;
    };
    if line.len() - v.forced.len() <= LONG_LINE {
        return;
    }
    let mut p = pos.clone();
    for &m in &v.forced {
        p.play_unchecked(m);
    }
    let mut counter = Counter::new(u64::MAX, &Budget::default());
    let found = line.split_off(v.forced.len());
    line.extend(shorten(&p, found, &mut counter));
    v.nodes += counter.nodes;
}

/// Can `color` still checkmate from `pos`? A helpmate line comes as found (see
/// [`readable`]).
///
/// ```
/// use _core::board::from_fen;
/// use _core::unwinnable::{Answer, Budget, Mode, can_checkmate};
/// use shakmaty::Color;
///
/// // K+Q v K: White can mate (the line is a mate), the lone king cannot
/// let (pos, _) = from_fen("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", false).unwrap();
/// let white = can_checkmate(&pos, Color::White, Mode::Full, &Budget::default());
/// let black = can_checkmate(&pos, Color::Black, Mode::Full, &Budget::default());
/// assert!(matches!(white.answer, Answer::Can(ref line) if !line.is_empty()));
/// assert!(matches!(black.answer, Answer::Cannot(_)));
/// ```
pub fn can_checkmate(pos: &Chess, color: Color, mode: Mode, budget: &Budget) -> Verdict {
    if pos.is_checkmate() && pos.turn() != color {
        return Verdict::new(Answer::Can(Vec::new()), Method::Search, 0, &[]);
    }
    if let Some(m) = material::material(pos, color) {
        return Verdict::new(
            Answer::Cannot(Reason::Material(m)),
            Method::Material,
            0,
            &[],
        );
    }
    let limit = budget.max_nodes.unwrap_or(match mode {
        Mode::Quick => QUICK_NODES + QUICK_SEARCH + QUICK_VISIT,
        Mode::Full => FULL_NODES,
    });
    let mut counter = Counter::new(budget.stop_after.map_or(limit, |s| s.min(limit)), budget);
    let mut p = pos.clone();
    let mut forced = Vec::new();
    let plies = if mode == Mode::Quick {
        QUICK_FORCED_PLIES
    } else {
        FORCED_PLIES
    };
    match play_forced(&mut p, color, plies, &mut forced) {
        Forced::Mate => return Verdict::new(Answer::Can(Vec::new()), Method::Forced, 0, &forced),
        Forced::End(end) => {
            let reason = match end {
                ForcedEnd::Stalemate if forced.is_empty() => Reason::GameOver { stalemate: true },
                ForcedEnd::Mated if forced.is_empty() => Reason::GameOver { stalemate: false },
                end => Reason::Forced(end),
            };
            return Verdict::new(Answer::Cannot(reason), Method::Forced, 0, &forced);
        }
        Forced::Open => {}
    }
    if let Some(proof) = blocked::static_unwinnable(&p, color) {
        return Verdict::new(
            Answer::Cannot(Reason::Static(proof)),
            Method::Static,
            0,
            &forced,
        );
    }
    match mode {
        Mode::Quick => quick(&p, color, &mut counter, &forced),
        Mode::Full => full(&p, color, &mut counter, &forced, limit),
    }
}

/// Quick mode after the static proof: every line of a few plies ends, or a
/// tiny search finds a mate where few pieces stand.
fn quick(pos: &Chess, color: Color, counter: &mut Counter, forced: &[Move]) -> Verdict {
    if let Some(ends) = every_line_ends(pos, color, QUICK_PLIES, QUICK_NODES, counter) {
        let reason = Reason::Lines {
            plies: ends.longest,
            ends,
        };
        return Verdict::new(
            Answer::Cannot(reason),
            Method::Exhaustive,
            counter.nodes,
            forced,
        );
    }
    if pos.is_check() {
        // the evasions are few: the static proof after each of them
        if let Some(reason) = blocked::after_every_move(pos, color, FORCED_PLIES) {
            return Verdict::new(
                Answer::Cannot(reason),
                Method::Static,
                counter.nodes,
                forced,
            );
        }
    }
    if pos.board().occupied().count() <= 4 {
        let steer = Steer {
            corner: None,
            free_pawns: false,
            square: None,
        };
        let mut search = Helpmate::new(pos, color, steer);
        // (an iteration runs to its end: a counter of its own bounds it)
        let mut own = Counter::new(QUICK_SEARCH, &Budget::default());
        let found = search.run(&mut own, QUICK_SEARCH);
        counter.nodes += own.nodes;
        if let Outcome::Mate(line) = found {
            return Verdict::mate(line, Method::Search, counter, forced);
        }
    }
    let stuck = || {
        Color::ALL
            .into_iter()
            .any(|c| pos.board().king_of(c).is_some() && !king_can_move(pos, c))
    };
    let visit = if !(pos.board().knights() | pos.board().rooks_and_queens()).is_empty() {
        None
    } else if stuck() {
        Some(QUICK_VISIT)
    } else if closed_files(pos) {
        Some(QUICK_VISIT_CLOSED)
    } else {
        None
    };
    if let Some(nodes) = visit {
        // pawns and bishops beside a king that cannot move (the tempo endings, where
        // one side runs out of moves) or behind a closed structure: the reachable
        // positions are few
        match Visit::new(pos, color).run(counter, nodes) {
            Outcome::Mate(line) => {
                return Verdict::mate(line, Method::Visit, counter, forced);
            }
            Outcome::Exhausted => {
                let reason = Reason::Exhausted {
                    positions: counter.nodes,
                };
                return Verdict::new(
                    Answer::Cannot(reason),
                    Method::Exhaustive,
                    counter.nodes,
                    forced,
                );
            }
            Outcome::Limit => {}
        }
    }
    Verdict::unknown(counter.nodes, Stop::Quick, forced)
}

/// Pawns rammed head to head, and every file with a pawn of one side has a pawn of
/// the other: a structure that may keep both kings out for ever, whose reachable
/// positions are few when only bishops stand beside the pawns.
fn closed_files(pos: &Chess) -> bool {
    let b = pos.board();
    let (white, black) = (b.pawns() & b.white(), b.pawns() & b.black());
    // a pawn on its last-but-one rank is about to leave its file by promoting
    let files = |pawns: shakmaty::Bitboard, promoting: shakmaty::Rank| {
        (pawns & !shakmaty::Bitboard::from_rank(promoting))
            .into_iter()
            .fold(0u8, |f, s| f | 1 << u32::from(s.file()))
    };
    (white.shift(8) & black).any()
        && files(white, shakmaty::Rank::Seventh) == files(black, shakmaty::Rank::Second)
}

/// Full mode after the static proof.
fn full(pos: &Chess, color: Color, counter: &mut Counter, forced: &[Move], limit: u64) -> Verdict {
    // each search with its share of a round's slice
    // (set up when their first turn comes: most questions end in the first)
    let mut searches: Vec<(Steer, Option<Helpmate>, u64)> = steerings(pos, color)
        .into_iter()
        .map(|steer| (steer, None, 1))
        .collect();
    // the visits are set up when their first turn comes (most questions end before)
    let mut visits: Option<(Visit, Option<Visit>)> = None;
    let mut after_every_move_tried = false;
    // a small budget (the per-ply dead test's) gets smaller slices, so that the
    // visits, which prove, get two turns within it
    let mut slice = (limit / 64).clamp(FIRST_SLICE / 4, FIRST_SLICE);
    while counter.running() {
        for (steer, search, share) in &mut searches {
            let search = search.get_or_insert_with(|| Helpmate::new(pos, color, *steer));
            match search.run(counter, slice * *share) {
                Outcome::Mate(line) => {
                    return Verdict::mate(line, Method::Search, counter, forced);
                }
                Outcome::Exhausted => {
                    let reason = Reason::Exhausted {
                        positions: search.nodes,
                    };
                    return Verdict::new(
                        Answer::Cannot(reason),
                        Method::Exhaustive,
                        counter.nodes,
                        forced,
                    );
                }
                Outcome::Limit => {}
            }
        }
        if !after_every_move_tried {
            after_every_move_tried = true;
            if let Some(reason) = blocked::after_every_move(pos, color, FORCED_PLIES) {
                return Verdict::new(
                    Answer::Cannot(reason),
                    Method::Static,
                    counter.nodes,
                    forced,
                );
            }
            // where the reach analysis leaves a mate possible on few squares,
            // a search heads for each of them
            if let Some(squares) = blocked::mating_targets(pos, color)
                && squares != 0
                && squares.count_ones() <= MATING_SQUARES
            {
                for square in bits::squares(squares) {
                    let steer = Steer {
                        corner: None,
                        free_pawns: false,
                        square: Some(square),
                    };
                    // (the best informed: a double share)
                    searches.push((steer, None, 2));
                }
            }
        }
        // the visit, which proves, gets as much as the searches, which find mates
        let shares: u64 = searches.iter().map(|(_, _, share)| share).sum();
        let (visit, focus) = visits.get_or_insert_with(|| {
            // where some pieces can never take part in a mate, a visit that holds them still
            let still = reach::idle_pieces(pos, color);
            let focus = (still != 0).then(|| Visit::focused(pos, color, still));
            (Visit::new(pos, color), focus)
        });
        match visit.run(counter, slice * shares) {
            Outcome::Mate(line) => {
                return Verdict::mate(line, Method::Visit, counter, forced);
            }
            Outcome::Exhausted => {
                let reason = Reason::Exhausted {
                    positions: visit.positions(),
                };
                return Verdict::new(
                    Answer::Cannot(reason),
                    Method::Exhaustive,
                    counter.nodes,
                    forced,
                );
            }
            Outcome::Limit => {}
        }
        if let Some(focus) = focus
            && let Outcome::Mate(line) = focus.run(counter, slice * shares)
        {
            return Verdict::mate(line, Method::Visit, counter, forced);
        }
        slice = slice.saturating_mul(2);
    }
    Verdict::unknown(
        counter.nodes,
        counter.stopped.unwrap_or(Stop::Nodes),
        forced,
    )
}

/// The steered searches of full mode: toward the default corner with every
/// pawn move free and without, then toward each other corner.
fn steerings(pos: &Chess, color: Color) -> Vec<Steer> {
    let usual = search::default_corner(pos, color);
    let mut out = vec![
        Steer {
            corner: None,
            free_pawns: false,
            square: None,
        },
        Steer {
            corner: None,
            free_pawns: true,
            square: None,
        },
    ];
    if pos.board().pawns().is_empty() {
        out.remove(1); // pawn moves cost nothing to change without pawns
    }
    for corner in [0, 7, 56, 63] {
        if corner != usual {
            out.push(Steer {
                corner: Some(corner),
                free_pawns: true,
                square: None,
            });
        }
    }
    out
}

/// Is `pos` dead (neither side can mate, FIDE 5.2.2)? `None` when undecided.
///
/// ```
/// use _core::board::from_fen;
/// use _core::unwinnable::{Budget, Mode, is_dead};
///
/// // locked pawns, no piece to break through: neither side can ever mate
/// let (locked, _) = from_fen("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", false).unwrap();
/// assert_eq!(is_dead(&locked, Mode::Full, &Budget::default()), Some(true));
/// let (open, _) = from_fen("8/8/4k3/1p1p1p1p/1P1P1P2/4K2P/8/8 w - - 0 1", false).unwrap();
/// assert_eq!(is_dead(&open, Mode::Full, &Budget::default()), Some(false));
/// ```
#[must_use]
pub fn is_dead(pos: &Chess, mode: Mode, budget: &Budget) -> Option<bool> {
    let mut undecided = false;
    for color in Color::ALL {
        match can_checkmate(pos, color, mode, budget).answer {
            Answer::Can(_) => return Some(false),
            Answer::Unknown => undecided = true,
            Answer::Cannot(_) => {}
        }
    }
    if undecided { None } else { Some(true) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use testing::{pos, replays_to_mate};

    fn full_verdict(fen: &str, color: Color) -> Verdict {
        can_checkmate(&pos(fen), color, Mode::Full, &Budget::default())
    }

    #[test]
    fn decides_simple_questions() {
        let v = full_verdict("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", Color::Black);
        assert_eq!(
            v.answer,
            Answer::Cannot(Reason::Material(Material::BareKing))
        );
        let fen = "8/8/8/4k3/8/2n5/P7/K7 w - - 0 1";
        match full_verdict(fen, Color::Black).answer {
            Answer::Can(line) => assert!(replays_to_mate(fen, &line, Color::Black)),
            other => panic!("{other:?}"),
        }
        let v = full_verdict("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", Color::White);
        assert_eq!(v.method, Method::Static);
    }

    #[test]
    fn quick_mode_proves_what_chas_quick_mode_proves() {
        for fen in [
            // every line of seven plies ends (each side's quiet king steps tried first)
            "1Q6/8/p7/P1p5/K1p5/P1Pn4/PQQ5/k2n4 b - - 0 1",
            "Bk6/1P6/1P6/8/5p1p/P7/RPPP1P1P/4K3 w - - 0 1",
            // pawns rammed, no file with one side's pawns alone: few positions reachable
            "8/7p/k4p1P/5p1K/5Pp1/6P1/6P1/8 w - - 0 1",
            // a king that cannot move, and a longer visit
            "k7/p1p1p3/8/8/P1P5/4P1p1/6Pp/7K w - - 0 1",
        ] {
            for color in Color::ALL {
                let v = can_checkmate(&pos(fen), color, Mode::Quick, &Budget::default());
                assert!(
                    matches!(v.answer, Answer::Cannot(_)),
                    "{fen} {color:?}: {v:?}"
                );
            }
        }
    }

    #[test]
    fn dead_positions() {
        let dead = |fen: &str| is_dead(&pos(fen), Mode::Full, &Budget::default());
        assert_eq!(dead("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"), Some(true));
        assert_eq!(
            dead("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
            Some(true)
        );
        assert_eq!(
            dead("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            Some(false)
        );
    }
}
