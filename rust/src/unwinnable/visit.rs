//! The visit of every position reachable from the root, best first by
//! *novelty* (width-based planning: Lipovetzky and Geffner, "Best-First Width
//! Search", AAAI 2017).
//!
//! Composed positions hide their mates behind long, narrow plans (a pawn given
//! up so that another passes, a king walking the length of the board while
//! the other side spends its last tempi); a search by depth drowns before it
//! gets there. Here a position that puts a piece on a square for the first
//! time (among positions of its *context*: the same winner's pawns and the same
//! material) comes first; then one that, for the first time, has a piece on a
//! square while a king stands on a given square; the rest last. Among equals,
//! the position whose would-be winner is nearest a new queen, then whose loser's
//! king has fewer flight squares, then the one met first.
//!
//! Nothing is pruned but positions where the would-be winner has lost all
//! mating material, so a visit that runs out of positions has met every
//! reachable one: "no mate" is then a proof. A mate is recognised as soon as it
//! is generated. The visit is resumable: each run expands positions until its
//! slice of nodes is spent.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position,
    PositionError, Role, Setup, Square,
};

use super::bits::{bit, board_of, ci, forward, king, roles, squares};
use super::budget::Counter;
use super::checks::checkmated;
use super::key::{KeySet, key};
use super::material::hopeless;
use super::search::Outcome;

type ContextMap = HashMap<u128, u32, BuildHasherDefault<Mixed>>;

/// A hasher for small structured integers (table entries): a multiply-mix.
#[derive(Default, Clone, Copy)]
pub struct Mixed(u64);

impl std::hash::Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        let x = (self.0 ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 29);
    }
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
}

/// A set of atoms (a piece on a square) as twelve bitboards, one a colour and role:
/// the word of an atom is its number's high bits, its bit the square.
type Atoms = [u64; 12];

/// The word of `atoms` holding the pieces of `color` and `role`.
#[inline]
fn word(color: Color, role: Role) -> usize {
    ci(color) * 6 + (role as usize - 1)
}

/// Every atom of a board, by word.
#[inline]
fn atoms_of(b: &Board) -> Atoms {
    let mut out = [0; 12];
    for color in Color::ALL {
        for role in Role::ALL {
            out[word(color, role)] = (b.by_color(color) & b.by_role(role)).0;
        }
    }
    out
}

/// The novelty tables of a visit: the atoms met in each context, and the atoms met
/// with each king on each square (king keys 0-63: the loser's, 64-127: the winner's)
/// in each context. Bitsets a context (and a king key) hold what sets of numbers did,
/// a word at a time.
#[derive(Default)]
struct Novelty {
    atoms: Vec<Atoms>,
    /// by context and king key: the row of `rows`, or `u32::MAX` before the first
    pair_rows: Vec<u32>,
    rows: Vec<Atoms>,
}

impl Novelty {
    fn atoms(&mut self, context: u32) -> &mut Atoms {
        let c = context as usize;
        if c >= self.atoms.len() {
            self.atoms.resize(c + 1, [0; 12]);
        }
        &mut self.atoms[c]
    }

    fn pairs(&mut self, context: u32, king: u64) -> &mut Atoms {
        let at = context as usize * 128 + king as usize;
        if at >= self.pair_rows.len() {
            self.pair_rows
                .resize((context as usize + 1) * 128, u32::MAX);
        }
        if self.pair_rows[at] == u32::MAX {
            self.pair_rows[at] = self.rows.len() as u32;
            self.rows.push([0; 12]);
        }
        &mut self.rows[self.pair_rows[at] as usize]
    }
}

/// Adds `new` to `set`: whether an atom of it was not there yet. `words` has a bit for
/// each word of `new` that is not empty (a move changes one or two).
#[inline]
fn insert(set: &mut Atoms, new: &Atoms, mut words: u32) -> bool {
    let mut fresh = 0;
    while words != 0 {
        let w = words.trailing_zeros() as usize;
        words &= words - 1;
        fresh |= new[w] & !set[w];
        set[w] |= new[w];
    }
    fresh != 0
}

/// The bit of each word of `atoms` that is not empty.
#[inline]
fn words(atoms: &Atoms) -> u32 {
    atoms
        .iter()
        .enumerate()
        .fold(0, |m, (i, &a)| m | u32::from(a != 0) << i)
}

/// A position waiting in the open list, packed.
struct Packed {
    roles: [u64; 6],
    white: u64,
    castling: u64,
    ep: u8,
    white_to_move: bool,
    context: u32,
    /// Its index in the visit's `parents`.
    id: u32,
}

impl Packed {
    fn new(pos: &Chess, context: u32, id: u32) -> Packed {
        let b = pos.board();
        Packed {
            roles: roles(b),
            white: b.white().0,
            castling: pos.castles().castling_rights().0,
            ep: pos.ep_square(EnPassantMode::Legal).map_or(64, u8::from),
            white_to_move: pos.turn() == Color::White,
            context,
            id,
        }
    }

    /// The position again (it was legal when packed: a failure here is a bug,
    /// and a panic, never a position silently left out of a proof).
    fn unpack(&self, mode: CastlingMode) -> Chess {
        let board = board_of(self.roles, self.white).expect("a packed board");
        let setup = Setup {
            board,
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: if self.white_to_move {
                Color::White
            } else {
                Color::Black
            },
            castling_rights: Bitboard(self.castling),
            ep_square: (self.ep < 64).then(|| Square::new(u32::from(self.ep))),
            remaining_checks: None,
            halfmoves: 0,
            fullmoves: std::num::NonZeroU32::MIN,
        };
        Chess::from_setup(setup, mode)
            .or_else(PositionError::ignore_too_much_material)
            .or_else(PositionError::ignore_impossible_check)
            .expect("a packed position")
    }
}

pub struct Visit {
    winner: Color,
    mode: CastlingMode,
    /// Squares whose pieces never move in this visit (a focus: it finds
    /// mates, and proves nothing when it runs out of positions).
    still: u64,
    /// Every position met.
    index: KeySet,
    /// By index: the index of the position it was first reached from, and the move.
    parents: Vec<(u32, Option<Move>)>,
    /// The positions waiting (their slots in `waiting`), best first.
    open: Buckets,
    waiting: Vec<Packed>,
    /// Slots of `waiting` whose position was expanded, for reuse.
    free: Vec<u32>,
    contexts: ContextMap,
    /// (context, atom) met, and (context, atom, king square) met.
    novelty: Novelty,
}

/// The open list: one first-in first-out list of slots per priority (a few
/// hundred of them), so that among equals the first met comes first.
#[derive(Default)]
struct Buckets {
    lists: Vec<VecDeque<u32>>,
    lowest: usize,
}

impl Buckets {
    fn push(&mut self, priority: usize, slot: u32) {
        if priority >= self.lists.len() {
            // (every priority a visit has, at once)
            self.lists
                .resize_with((priority + 1).max(512), VecDeque::new);
        }
        self.lists[priority].push_back(slot);
        self.lowest = self.lowest.min(priority);
    }

    fn pop(&mut self) -> Option<u32> {
        while let Some(list) = self.lists.get_mut(self.lowest) {
            if let Some(slot) = list.pop_front() {
                return Some(slot);
            }
            self.lowest += 1;
        }
        None
    }
}

/// Every (colour, role, bitboard) of a board.
fn pieces(b: &Board) -> impl Iterator<Item = (Color, Role, u64)> + '_ {
    Color::ALL.into_iter().flat_map(move |c| {
        Role::ALL
            .into_iter()
            .map(move |r| (c, r, (b.by_color(c) & b.by_role(r)).0))
    })
}

impl Visit {
    pub fn new(root: &Chess, winner: Color) -> Visit {
        Visit::focused(root, winner, 0)
    }

    /// A visit that never moves the pieces on `still`.
    pub fn focused(root: &Chess, winner: Color, still: u64) -> Visit {
        let mut v = Visit {
            winner,
            mode: root.castles().mode(),
            still,
            // (sized for a visit of a few thousand positions, which then grows little)
            index: KeySet::with_capacity_and_hasher(4096, Default::default()),
            parents: Vec::with_capacity(4096),
            open: Buckets::default(),
            waiting: Vec::with_capacity(1024),
            free: Vec::new(),
            contexts: ContextMap::default(),
            novelty: Novelty::default(),
        };
        v.parents.push((0, None));
        v.index.insert(key(root));
        let context = v.context(root);
        v.register(root, None, context);
        v.push(0, root, context, 0);
        v
    }

    /// Positions met so far.
    pub fn positions(&self) -> u64 {
        self.parents.len() as u64
    }

    /// The context of a position: the winner's pawns and the material.
    fn context(&mut self, pos: &Chess) -> u32 {
        let b = pos.board();
        let mut material: u128 = 0;
        for (_, _, bb) in pieces(b) {
            material = (material << 5) | u128::from(bb.count_ones());
        }
        let pawns = (b.pawns() & b.by_color(self.winner)).0;
        let k = (material << 64) | u128::from(pawns);
        let n = self.contexts.len() as u32;
        *self.contexts.entry(k).or_insert(n)
    }

    /// Register the atoms of `pos` that are new beside `parent` (all of them
    /// without one, or in another context) and their pairs with the kings'
    /// squares; the novelty: 1 (an atom new in the context), 2 (a pair), 3.
    fn register(&mut self, pos: &Chess, parent: Option<&Chess>, context: u32) -> u64 {
        let b = pos.board();
        let kings = [
            b.king_of(!self.winner).map_or(0, u64::from),
            64 + b.king_of(self.winner).map_or(0, u64::from),
        ];
        let all = atoms_of(b);
        let mut changed = all;
        if let Some(p) = parent {
            for (c, before) in changed.iter_mut().zip(atoms_of(p.board())) {
                *c &= !before;
            }
        }
        let kings_moved = [
            changed[word(!self.winner, Role::King)] != 0,
            changed[word(self.winner, Role::King)] != 0,
        ];
        let mut novelty = 3;
        let changed_words = words(&changed);
        if insert(self.novelty.atoms(context), &changed, changed_words) {
            novelty = 1;
        }
        for k in kings {
            if insert(self.novelty.pairs(context, k), &changed, changed_words) && novelty > 2 {
                novelty = 2;
            }
        }
        if kings_moved.iter().any(|&m| m) && parent.is_some() {
            // a king on a new square pairs with every piece
            let all_words = words(&all);
            for (k, &moved) in kings.iter().zip(&kings_moved) {
                if moved && insert(self.novelty.pairs(context, *k), &all, all_words) && novelty > 2
                {
                    novelty = 2;
                }
            }
        }
        novelty
    }

    /// The order among equally novel positions: the winner's distance to a new
    /// queen (where it has no queen or rook), then the loser king's flights.
    fn rank(&self, pos: &Chess) -> u64 {
        let b = pos.board();
        let winner = self.winner;
        let mine = b.by_color(winner).0;
        let mut promotion = 0;
        if mine & b.rooks_and_queens().0 == 0 {
            let white = winner == Color::White;
            let pawns = mine & b.pawns().0;
            let free = pawns & !forward(b.occupied().0, !white);
            promotion = squares(if free != 0 { free } else { pawns })
                .map(|s| if white { 7 - (s >> 3) } else { s >> 3 })
                .min()
                .map_or(0, u64::from);
        }
        let Some(k) = b.king_of(!winner) else {
            return promotion.min(7) << 4;
        };
        let occupied = b.occupied() & !Bitboard::from_square(k);
        let flights = squares(king(u32::from(k)) & !b.by_color(!winner).0)
            .filter(|&s| b.attacks_to(Square::new(s), winner, occupied).is_empty())
            .count() as u64;
        (promotion.min(7) << 4) | flights
    }

    fn push(&mut self, id: u32, pos: &Chess, context: u32, novelty: u64) {
        // (a rank is below 128: the buckets of one novelty follow those of the one before)
        let priority = (novelty as usize) << 7 | self.rank(pos) as usize;
        let packed = Packed::new(pos, context, id);
        let slot = match self.free.pop() {
            Some(slot) => {
                self.waiting[slot as usize] = packed;
                slot
            }
            None => {
                self.waiting.push(packed);
                (self.waiting.len() - 1) as u32
            }
        };
        self.open.push(priority, slot);
    }

    /// Expand positions until a mate, the end of them, `counter`'s limit or
    /// `slice` more nodes.
    pub fn run(&mut self, counter: &mut Counter, slice: u64) -> Outcome {
        let stop_at = counter.nodes.saturating_add(slice);
        while counter.running() && counter.nodes < stop_at {
            let Some(slot) = self.open.pop() else {
                return if self.still == 0 {
                    Outcome::Exhausted
                } else {
                    Outcome::Limit
                };
            };
            self.free.push(slot);
            let (pos, i, context) = {
                let packed = &self.waiting[slot as usize];
                (packed.unpack(self.mode), packed.id, packed.context)
            };
            for &m in &pos.legal_moves() {
                if self.still != 0
                    && m.from()
                        .is_some_and(|f| self.still & bit(u32::from(f)) != 0)
                {
                    continue;
                }
                let mut child = pos.clone();
                child.play_unchecked(m);
                let j = self.parents.len() as u32;
                if !self.index.insert(key(&child)) {
                    continue;
                }
                counter.tick();
                self.parents.push((i, Some(m)));
                if child.turn() != self.winner && checkmated(&child) {
                    return Outcome::Mate(self.line(j));
                }
                if hopeless(&child, self.winner) {
                    continue;
                }
                // the context changes only by a capture, a promotion or a
                // pawn move of the winner's
                let changed = m.is_capture()
                    || m.is_promotion()
                    || (m.role() == Role::Pawn && pos.turn() == self.winner);
                let child_context = if changed {
                    self.context(&child)
                } else {
                    context
                };
                let parent = (child_context == context).then_some(&pos);
                let novelty = self.register(&child, parent, child_context);
                self.push(j, &child, child_context, novelty);
            }
        }
        Outcome::Limit
    }

    fn line(&self, mut i: u32) -> Vec<Move> {
        let mut line = Vec::new();
        while let (parent, Some(m)) = self.parents[i as usize] {
            line.push(m);
            i = parent;
        }
        line.reverse();
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::budget::Budget;
    use crate::unwinnable::testing::{pos, replays_to_mate};

    #[test]
    fn finds_mates_and_proves() {
        let fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";
        let mut counter = Counter::new(100_000, &Budget::default());
        match Visit::new(&pos(fen), Color::White).run(&mut counter, u64::MAX) {
            Outcome::Mate(line) => assert!(replays_to_mate(fen, &line, Color::White)),
            other => panic!("{other:?}"),
        }
        let fen = "8/3k4/6p1/p2p1pP1/P2P1P2/2K5/8/8 b - - 0 1";
        let mut counter = Counter::new(1_000_000, &Budget::default());
        assert_eq!(
            Visit::new(&pos(fen), Color::White).run(&mut counter, u64::MAX),
            Outcome::Exhausted
        );
    }

    #[test]
    fn positions_with_promoted_material_are_kept() {
        // six white bishops, more than a game without promotions has, which
        // shakmaty refuses by default: a visit that dropped such positions
        // would "prove" that White cannot mate
        let fen = "4B1Bb/7B/1k5b/5B2/1p1p1pBp/bPpP1P1P/2Pb4/N1b1b1K1 b - - 0 1";
        let mut counter = Counter::new(1_000_000, &Budget::default());
        match Visit::new(&pos(fen), Color::White).run(&mut counter, u64::MAX) {
            Outcome::Mate(line) => assert!(replays_to_mate(fen, &line, Color::White)),
            other => panic!("{other:?}"),
        }
    }
}
