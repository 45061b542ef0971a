//! The dead-position test run after every ply (Article 5.2.2).
//!
//! It must cost almost nothing in ordinary positions, so it looks at a few bitboards
//! first ([`gate`]). Without pawns, material decides the material cases. The engine is
//! asked only about closed pawn structures without a queen or rook, a queen or rook
//! behind a wall of rammed pawns, and a forced move in check among few units that ends
//! in stalemate or leaves too little material; elsewhere the answer is "not proved dead"
//! at once. A candidate gets quick mode for both colours, then, where quick mode left a
//! colour open and the structure is closed, full mode within [`DEAD_TEST_NODES`]. Dead
//! only on two proofs. Returning `None` is always safe: it means "not proved dead".

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Move, Position, Role, Setup, Square,
};

use crate::board::describe_material;
use crate::identity::{Key, KeyMap};
use crate::unwinnable::{self, Answer, Budget, Mode, Verdict};

/// Node budget of the full-mode question on a candidate position (per colour).
pub const DEAD_TEST_NODES: u64 = 5_000;
/// Pairs of rammed pawns from which a position with a queen or rook is a candidate.
const WALL_PAIRS: u32 = 3;
/// Pairs of rammed pawns from which a position without a queen or rook is a candidate.
const CLOSED_PAIRS: u32 = 2;
/// With a queen or rook, a wall whose free pawns cannot promote without a capture is a
/// candidate on a board of at most this many units.
const WALL_UNITS: u32 = 16;
/// Units up to which a forced move in check is followed to see whether it ends the game.
const FORCED_UNITS: u32 = 8;
/// Searches beyond quick mode per structure that may end without a proof in one game.
pub const FULL_RUNS_PER_STRUCTURE: u32 = 3;
/// Positions per structure looked at without a proof before the rest are let go (but
/// for those in check).
const LOOKS_PER_STRUCTURE: u32 = 3;
const CACHE_SIZE: usize = 4096;
/// Moves tried to step away and back (see [`back`]).
const BACK_TRIES: usize = 6;

/// A proof that the position is dead.
#[derive(Clone, Debug, PartialEq)]
pub enum DeadVerdict {
    /// Neither side has the material to mate: `K v K+N`.
    Material(String),
    /// The engine proved that neither side can mate (White's proof, then Black's).
    Dead {
        white: Box<Verdict>,
        black: Box<Verdict>,
    },
}

/// A dead-position test over the positions of one game.
pub trait DeadTest {
    fn test(&mut self, pos: &Chess) -> Option<DeadVerdict>;
}

/// Insufficient material only.
pub struct Material;

impl DeadTest for Material {
    fn test(&mut self, pos: &Chess) -> Option<DeadVerdict> {
        material_dead(pos)
    }
}

/// Insufficient material for both sides, with its description: remis's one test of
/// the material cases of 5.2.2 (shakmaty's, python-chess's `is_insufficient_material`).
///
/// ```
/// use _core::board::from_fen;
/// use _core::rules::dead::material_dead;
///
/// let (knight, _) = from_fen("8/8/8/4k3/8/2n5/8/K7 w - - 0 1", false).unwrap();
/// assert!(material_dead(&knight).is_some()); // K+N v K
/// let (pawn, _) = from_fen("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", false).unwrap();
/// assert!(material_dead(&pawn).is_none());
/// ```
#[must_use]
pub fn material_dead(pos: &Chess) -> Option<DeadVerdict> {
    let b = pos.board();
    if (b.pawns() | b.rooks() | b.queens()).any() {
        return None; // the usual case, decided at once
    }
    pos.is_insufficient_material()
        .then(|| DeadVerdict::Material(describe_material(pos)))
}

/// [`material_dead`] for a board that need not be a legal position (an illegal move
/// that stood can leave the side not to move in check, A.5.4): the material cases do
/// not depend on whose move it is. None where no position has these units (no king).
#[allow(clippy::result_large_err)] // the errors are dropped at once
#[must_use]
pub fn material_dead_board(b: &Board) -> Option<DeadVerdict> {
    if (b.pawns() | b.rooks() | b.queens()).any() {
        return None;
    }
    [Color::White, Color::Black].into_iter().find_map(|turn| {
        let setup = Setup {
            board: b.clone(),
            turn,
            ..Setup::empty()
        };
        Chess::from_setup(setup, CastlingMode::Standard)
            .or_else(|e| e.ignore_impossible_check())
            .or_else(|e| e.ignore_too_much_material())
            .ok()
            .map(|pos| material_dead(&pos))
    })?
}

/// A test that knows the one dead position of the game (found once the whole record was
/// read) and proves nothing else.
pub struct Known {
    pub key: Key,
    pub verdict: DeadVerdict,
}

impl DeadTest for Known {
    fn test(&mut self, pos: &Chess) -> Option<DeadVerdict> {
        (Key::of(pos) == self.key).then(|| self.verdict.clone())
    }
}

#[derive(Clone)]
struct Outcome {
    verdict: Option<DeadVerdict>,
    needs_full: bool,
    /// a side was found to mate: the position is live
    live: bool,
}

/// The engine's dead test for one game: candidates only, within a budget per pawn
/// structure and material (which a piece move without capture keeps), so that a long
/// game of king moves behind a locked but live structure stays cheap. `quick_only` never
/// searches beyond quick mode (the audit's choice). The answers depend only on the
/// game's positions in order.
pub struct Engine {
    /// searches beyond quick mode per structure that may end without a proof
    full_runs: u32,
    failed: KeyMap<u32>,
    looked: KeyMap<u32>,
    cache: KeyMap<Outcome>,
    /// the positions tested since the last one found live, each one move of a piece
    /// (no pawn, no capture) after the one before: each can go back to the one before
    /// (see [`back`]), and is live too
    chain: Vec<Chess>,
}

impl Engine {
    #[must_use]
    pub fn new(quick_only: bool) -> Engine {
        Engine::with_full_runs(if quick_only {
            0
        } else {
            FULL_RUNS_PER_STRUCTURE
        })
    }

    /// A test that allows `full_runs` searches beyond quick mode per structure and game
    /// (0: quick mode only).
    #[must_use]
    pub fn with_full_runs(full_runs: u32) -> Engine {
        Engine {
            full_runs,
            failed: KeyMap::default(),
            looked: KeyMap::default(),
            cache: KeyMap::default(),
            chain: Vec::new(),
        }
    }

    /// The positions of this game the test looked at beyond its cheap part.
    #[cfg(test)]
    #[must_use]
    pub fn looks(&self) -> u32 {
        self.looked.values().sum()
    }

    /// Start a new game (the cache of answers by position stays).
    pub fn reset(&mut self) {
        self.failed.clear();
        self.looked.clear();
        self.chain.clear();
    }

    /// Follow the game to `pos`: the chain of positions since the last one found live
    /// goes on where `pos` is one move of a piece after the last, and breaks elsewhere.
    fn follow(&mut self, pos: &Chess) {
        let Some(last) = self.chain.last() else {
            return;
        };
        if moved_piece(pos, last).is_some() {
            self.chain.push(pos.clone());
        } else if Key::of(last) != Key::of(pos) {
            self.chain.clear();
        }
    }

    /// Whether `pos`, the last position followed, is live because it can go back, move
    /// by move, to the last position found live.
    fn live_by_chain(&mut self) -> bool {
        let n = self.chain.len();
        if n < 2 {
            return false;
        }
        let live = (1..n)
            .rev()
            .all(|i| back(&self.chain[i], &self.chain[i - 1]));
        if live {
            self.chain.drain(..n - 1);
        } else {
            self.chain.clear();
        }
        live
    }

    fn outcome(&mut self, pos: &Chess, full: bool) -> Option<Outcome> {
        let key = Key::of(pos);
        if let Some(o) = self.cache.get(&key) {
            return (!o.needs_full || full).then(|| o.clone());
        }
        let o = decide(pos, full)?;
        if self.cache.len() >= CACHE_SIZE {
            self.cache.clear();
        }
        self.cache.insert(key, o.clone());
        Some(o)
    }
}

impl DeadTest for Engine {
    fn test(&mut self, pos: &Chess) -> Option<DeadVerdict> {
        self.follow(pos);
        match gate(pos) {
            Gate::Dead(v) => return Some(v),
            Gate::No => return None,
            Gate::Look => {}
        }
        let s = structure(pos);
        let looked = self.looked.get(&s).copied().unwrap_or(0);
        let check_only = looked >= LOOKS_PER_STRUCTURE;
        if check_only && !pos.is_check() {
            return None;
        }
        let failed = self.failed.get(&s).copied().unwrap_or(0);
        // a position that can go back to one found live is live: no question to ask
        let outcome = if self.live_by_chain() {
            Some(Outcome {
                verdict: None,
                needs_full: false,
                live: true,
            })
        } else {
            self.outcome(pos, failed < self.full_runs && !check_only)
        };
        if outcome.as_ref().is_some_and(|o| o.live) {
            self.chain = vec![pos.clone()];
        }
        if let Some(o) = &outcome
            && o.verdict.is_some()
        {
            return o.verdict.clone();
        }
        self.looked.insert(s, looked + 1);
        if outcome.is_some_and(|o| o.needs_full) {
            self.failed.insert(s, failed + 1);
        }
        None
    }
}

/// Quick mode for both colours, then full mode for those it left open where the
/// structure is closed (None instead when `full` is false); dead only on two proofs.
fn decide(pos: &Chess, full: bool) -> Option<Outcome> {
    let none = Budget::default();
    let mut quick = Vec::with_capacity(2);
    for color in [Color::White, Color::Black] {
        let v = unwinnable::can_checkmate(pos, color, Mode::Quick, &none);
        if matches!(v.answer, Answer::Can(_)) {
            return Some(Outcome {
                verdict: None,
                needs_full: false,
                live: true,
            });
        }
        quick.push(v);
    }
    let open = quick.iter().any(|v| v.answer == Answer::Unknown);
    if open && !full_candidate(pos) {
        return Some(Outcome {
            verdict: None,
            needs_full: false,
            live: false,
        });
    }
    if open && !full {
        return None;
    }
    let budget = Budget {
        max_nodes: Some(DEAD_TEST_NODES),
        ..Budget::default()
    };
    let mut proofs = Vec::with_capacity(2);
    for (v, color) in quick.into_iter().zip([Color::White, Color::Black]) {
        let v = if v.answer == Answer::Unknown {
            unwinnable::can_checkmate(pos, color, Mode::Full, &budget)
        } else {
            v
        };
        if !matches!(v.answer, Answer::Cannot(_)) {
            return Some(Outcome {
                verdict: None,
                needs_full: true,
                live: matches!(v.answer, Answer::Can(_)),
            });
        }
        proofs.push(v);
    }
    let black = proofs.pop()?;
    let white = proofs.pop()?;
    Some(Outcome {
        verdict: Some(DeadVerdict::Dead {
            white: Box::new(white),
            black: Box::new(black),
        }),
        needs_full: open,
        live: false,
    })
}

/// The piece of the side that moved from `before` to `after` that moved, where that is
/// all that changed (no pawn, no capture, no castling): its role and its squares before
/// and after.
fn moved_piece(after: &Chess, before: &Chess) -> Option<(Role, Square, Square)> {
    let (a, b) = (after.board(), before.board());
    if after.turn() == before.turn() {
        return None;
    }
    let changed = a.occupied() ^ b.occupied();
    let from = (changed & b.occupied()).single_square()?;
    let to = (changed & a.occupied()).single_square()?;
    let piece = b.piece_at(from)?;
    if piece.color != before.turn() || piece.role == Role::Pawn || a.piece_at(to) != Some(piece) {
        return None;
    }
    // every other unit where it stood
    let rest = !changed;
    let same = Role::ALL
        .into_iter()
        .all(|r| a.by_role(r) & rest == b.by_role(r) & rest)
        && a.white() & rest == b.white() & rest;
    same.then_some((piece.role, from, to))
}

/// Whether `after` can go back to `before` (a move of a piece after it): the side to
/// move steps a piece away, the other side's piece goes back, and the first steps back,
/// three legal moves to the very same position (its castling rights and en passant
/// square too). Then a mate from `before` is a mate from `after`.
fn back(after: &Chess, before: &Chess) -> bool {
    let Some((role, from, to)) = moved_piece(after, before) else {
        return false;
    };
    let undo = Move::Normal {
        role,
        from: to,
        capture: None,
        to: from,
        promotion: None,
    };
    let target = Key::of(before);
    // (a few tries: a king or piece with room to step almost always has one)
    let tries = after.legal_moves().into_iter().filter(|m| {
        matches!(m, Move::Normal { role: r, capture: None, promotion: None, .. } if *r != Role::Pawn)
            && m.to() != from
            && m.from() != Some(to)
    });
    for step in tries.take(BACK_TRIES) {
        let Some(step_from) = step.from() else {
            continue;
        };
        let mut p = after.clone();
        p.play_unchecked(step);
        if !p.is_legal(undo) {
            continue;
        }
        p.play_unchecked(undo);
        let step_back = Move::Normal {
            role: step.role(),
            from: step.to(),
            capture: None,
            to: step_from,
            promotion: None,
        };
        if !p.is_legal(step_back) {
            continue;
        }
        p.play_unchecked(step_back);
        if Key::of(&p) == target {
            return true;
        }
    }
    false
}

enum Gate {
    Dead(DeadVerdict),
    No,
    Look,
}

/// The cheap part: a verdict for the material cases, `No` where the position is no
/// candidate, `Look` where the engine must look.
fn gate(pos: &Chess) -> Gate {
    let b = pos.board();
    let look = if b.pawns().is_empty() {
        if let Some(v) = material_dead(pos) {
            return Gate::Dead(v);
        }
        ends_by_force(pos)
    } else if (b.queens() | b.rooks()).any() {
        walled(pos) || ends_by_force(pos)
    } else {
        closed(pos) || ends_by_force(pos)
    };
    if look { Gate::Look } else { Gate::No }
}

/// What the per-game budget is counted by: the pawns and the material, bishops by the
/// colour of their squares.
fn structure(pos: &Chess) -> Key {
    let b = pos.board();
    let white = b.white().0;
    let mut material: u64 = 0;
    for bb in [
        b.knights().0,
        b.bishops().0 & Bitboard::DARK_SQUARES.0,
        b.bishops().0 & Bitboard::LIGHT_SQUARES.0,
        b.rooks().0,
        b.queens().0,
    ] {
        material = material << 8
            | u64::from((bb & white).count_ones()) << 4
            | u64::from((bb & !white).count_ones());
    }
    Key::from_parts(
        [b.pawns().0, b.pawns().0 & white, material, 0, 0, 0, 0, 0],
        true,
        0,
        64,
    )
}

/// Few units, in check with at most one legal move, and the forced moves (up to four
/// plies) end in stalemate or leave too little material for either side.
fn ends_by_force(pos: &Chess) -> bool {
    if pos.board().occupied().count() as u32 > FORCED_UNITS || !pos.is_check() {
        return false;
    }
    let mut p = pos.clone();
    for _ in 0..4 {
        let moves = p.legal_moves();
        if moves.len() != 1 {
            return moves.is_empty() && !p.is_check();
        }
        p.play_unchecked(moves[0]);
        if material_dead(&p).is_some() {
            return true;
        }
    }
    false
}

fn pawns(pos: &Chess) -> (u64, u64) {
    let b = pos.board();
    let white = (b.pawns() & b.white()).0;
    (white, b.pawns().0 & !white)
}

/// The pawns of `color` not rammed head-on by an enemy pawn.
fn free_pawns(pos: &Chess, color: Color) -> u64 {
    let (white, black) = pawns(pos);
    match color {
        Color::White => white & !(black >> 8),
        Color::Black => black & !(white << 8),
    }
}

/// Pairs of pawns rammed head-on.
fn rammed(pos: &Chess) -> u32 {
    let (white, _) = pawns(pos);
    (white & !free_pawns(pos, Color::White)).count_ones()
}

/// The pawns of `color` with no enemy pawn ahead on their file.
fn runners(pos: &Chess, color: Color) -> u64 {
    let (white, black) = pawns(pos);
    let (mine, theirs) = if color == Color::White {
        (white, black)
    } else {
        (black, white)
    };
    let mut shade = theirs;
    for _ in 0..6 {
        shade |= if color == Color::White {
            shade >> 8
        } else {
            shade << 8
        };
    }
    mine & !shade
}

fn closed(pos: &Chess) -> bool {
    rammed(pos) >= CLOSED_PAIRS
        && runners(pos, Color::White) == 0
        && runners(pos, Color::Black) == 0
}

fn walled(pos: &Chess) -> bool {
    if rammed(pos) < WALL_PAIRS {
        return false;
    }
    if free_pawns(pos, Color::White) == 0 && free_pawns(pos, Color::Black) == 0 {
        return true;
    }
    pos.board().occupied().count() as u32 <= WALL_UNITS
        && runners(pos, Color::White) == 0
        && runners(pos, Color::Black) == 0
}

fn full_candidate(pos: &Chess) -> bool {
    let b = pos.board();
    if (b.queens() | b.rooks()).any() {
        walled(pos)
    } else {
        closed(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::from_fen;

    fn pos(fen: &str) -> Chess {
        from_fen(fen, false).unwrap().0
    }

    fn play(p: &mut Chess, uci: &str) {
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(p)
            .unwrap();
        p.play_unchecked(m);
    }

    fn after(fen: &str, uci: &str) -> Chess {
        let mut p = pos(fen);
        play(&mut p, uci);
        p
    }

    #[test]
    fn a_piece_move_can_be_taken_back() {
        // a king's step, a bishop's: the other side steps away and back meanwhile
        let fen = "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/5B2 w - - 0 1";
        for uci in ["e3e2", "f1e2"] {
            assert!(back(&after(fen, uci), &pos(fen)), "{uci}");
        }
        // a pawn's move, a capture and a lost castling right cannot be taken back
        assert!(!back(
            &after("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4"),
            &pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        ));
        assert!(!back(
            &after("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2"),
            &pos("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
        ));
        let castles = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        assert!(!back(&after(castles, "h1h2"), &pos(castles)));
        // a side without a move to spare cannot wait
        let stuck = "k7/P7/K7/8/8/8/8/6B1 w - - 0 1";
        assert!(!back(&after(stuck, "g1h2"), &pos(stuck)));
    }

    #[test]
    fn positions_that_go_back_to_a_live_one_are_live() {
        // a closed structure with a bishop: the engine is asked, finds it live, and the
        // king moves after it are taken as live without a question (until the
        // structure has been looked at enough: then only checks are)
        let start = "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/5B2 w - - 0 1";
        let mut engine = Engine::new(false);
        let mut p = pos(start);
        assert!(engine.test(&p).is_none());
        assert_eq!(engine.chain.len(), 1, "the first position, found live");
        for uci in ["e3e2", "e6e7"] {
            play(&mut p, uci);
            let cached = engine.cache.len();
            assert!(engine.test(&p).is_none());
            assert_eq!(engine.cache.len(), cached, "{uci}: no question asked");
            assert_eq!(engine.chain.len(), 1);
        }
    }

    #[test]
    fn gates() {
        assert!(matches!(
            gate(&pos("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/7P/8 w - - 0 1")),
            Gate::Look
        ));
        assert!(matches!(gate(&Chess::default()), Gate::No));
        // ordinary positions cost a few bitboard tests: a middlegame, a wall with a
        // pawn free to promote, an open ending, a rook without a wall
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
            "8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1",
            "8/pp3k2/2p1bp2/5p2/2P5/1P3N2/P4PPP/6K1 w - - 0 30",
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        ] {
            assert!(matches!(gate(&pos(fen)), Gate::No), "{fen}");
        }
        // candidates: a knight or a bishop beside a locked wall, a king in check
        // behind one
        for fen in [
            "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/6N1 w - - 0 1",
            "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/5B2 w - - 0 1",
            "8/8/1p1k4/pP1p1p1p/P1KP1P1P/8/8/8 w - - 0 60",
        ] {
            assert!(matches!(gate(&pos(fen)), Gate::Look), "{fen}");
        }
        assert!(matches!(
            gate(&pos("8/8/8/4k3/8/8/8/K2n4 w - - 0 1")),
            Gate::Dead(_)
        ));
        assert!(ends_by_force(&pos("7k/6Q1/8/8/8/8/8/K7 b - - 0 1")));
        assert!(!ends_by_force(&pos("7k/6Q1/8/8/8/8/8/K5R1 b - - 0 1")));
        assert!(walled(&pos(
            "5brk/3Bp1p1/3pP1P1/3P2p1/3p2p1/3P4/4K1P1/8 b - - 0 1"
        )));
        assert!(!walled(&pos("4k3/1p1p1pp1/1P1P1P2/8/8/8/8/R3K3 w - - 0 1")));
        assert!(!closed(&pos("8/8/8/7p/5K1P/2k5/P7/8 w - - 2 52")));
        assert!(closed(&pos(
            "8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1"
        )));
        assert!(walled(&pos("6rk/8/1p1p1p1p/1P1P1P1P/8/8/8/4K3 w - - 0 1")));
        assert!(!full_candidate(&pos("8/8/8/7p/5K1P/2k5/P7/8 w - - 2 52")));
    }
}
