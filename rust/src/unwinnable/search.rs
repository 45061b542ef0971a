//! The steered helpmate search: iterative deepening over a budget of plies in
//! which the moves that head for a mate cost nothing.
//!
//! Both sides cooperate. A *mating corner* is chosen; moves that bring the
//! loser's king into it, the winner's king and knights toward it, the winner's
//! captures and pawn advances are *free*; moves that throw material away (the
//! loser's captures) cost three plies; the rest cost one, or nothing right after
//! a free move. On entering each of the winner's positions its mates in one
//! are tried first. Every legal move is tried whatever its cost (the costs only
//! order the work and decide how deep each line goes), so an iteration that
//! ends without cutting a line short has visited every reachable position:
//! "no mate" is then a proof. A transposition table, kept across iterations,
//! skips a position met again with no more budget than before; an iteration
//! that leaned on an entry of an earlier one proves nothing and is run again
//! on a fresh table. A search may head for one square instead of a corner (a
//! square where the reach analysis leaves a mate possible): every piece then
//! heads for it, the loser's own pieces to fill its flights. The line being
//! searched is an explicit stack, so that a search given slices of nodes in
//! turn with others pauses mid-iteration and goes on where it stopped.

use shakmaty::{Board, Chess, Color, Move, Position, Role};

use super::bits::{ALL, DARK, RANK_2, RANK_3, RANK_6, RANK_7, king_distance, knight_distance};
use super::budget::Counter;
use super::checks::{Checks, checkmated};
use super::key::{Key, KeyMap, key};
use super::material::{hopeless, needs_loser_promotion};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Mate(Vec<Move>),
    /// Every reachable position was visited: no mate.
    Exhausted,
    /// A limit stopped it.
    Limit,
}

/// How a search steers: toward a fixed mating corner (`None`: the default
/// corner of each position), and whether every pawn move is free; or toward
/// one square where the reach analysis says a mate could happen (`square`:
/// every piece heads for it, the loser's own pieces to fill its flights).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steer {
    pub corner: Option<u32>,
    pub free_pawns: bool,
    pub square: Option<u32>,
}

/// Nodes one iteration may spend per ply of its budget before the next,
/// deeper one starts (bushy iterations must not starve the deep lines).
const ITERATION_NODES: u64 = 10_000;
/// Positions the table holds before it first grows.
const TT_START: usize = 256;
/// The longest line the search follows.
const MAX_LINE: usize = 400;

const FREE: i32 = 0;
const NORMAL: i32 = 1;
const WASTE: i32 = 3;

/// The corner of a1, h1, a8, h8 nearest each square (ties in that order).
fn nearest_corner(s: u32) -> u32 {
    [0, 7, 56, 63]
        .into_iter()
        .min_by_key(|&c| king_distance(s, c))
        .unwrap_or(0)
}

/// The mating corner the search heads for by default: with a queen or rook,
/// the corner nearest the loser's king; else the far corner of the colour
/// the bishops need, unless the loser's king is clearly nearer the other.
pub fn default_corner(pos: &Chess, winner: Color) -> u32 {
    let b = pos.board();
    let king = b.king_of(!winner).map_or(0, u32::from);
    let mine = b.by_color(winner).0;
    if mine & b.rooks_and_queens().0 != 0 {
        return nearest_corner(king);
    }
    let w_bishops = b.bishops().0 & mine;
    let l_bishops = b.bishops().0 & !mine;
    let dark = w_bishops & DARK != 0 || (w_bishops == 0 && l_bishops & !DARK != 0);
    let (white_far, black_far) = if dark { (63, 0) } else { (56, 7) };
    let (far, near) = if winner == Color::White {
        (white_far, black_far)
    } else {
        (black_far, white_far)
    };
    if king_distance(king, near) + 2 < king_distance(king, far) {
        near
    } else {
        far
    }
}

/// Squares the search steers toward around `corner`: the winner's king, the
/// winner's knights, the loser's king, the loser's knights.
fn targets(corner: u32) -> [u32; 4] {
    let rank_in: i32 = if corner >= 56 { -16 } else { 16 };
    let file_in: i32 = if corner & 7 != 0 { -1 } else { 1 };
    let c = corner as i32;
    [(c + rank_in) as u32, corner, corner, (c + file_in) as u32]
}

/// A position on the line being searched, with its moves still to try.
struct Frame {
    pos: Chess,
    key: Key,
    left: i32,
    /// The move that led here was free: the next normal move is free too.
    progress: bool,
    /// The line went through a semi-blocked structure (see [`blocked_order`]).
    semi: bool,
    /// Its moves, cheapest first: `moves[start..end]` of the search's `moves`, and
    /// the next to try.
    start: usize,
    end: usize,
    next: usize,
}

/// What entering a position gives.
enum Enter {
    /// A mate is on the board.
    Mate,
    /// Nothing to search below it (seen with as much budget, no material, no
    /// move, no budget left).
    Leaf,
    /// Its moves are to be tried: a frame was pushed.
    Pushed,
}

/// How a run of an iteration ended.
enum Flow {
    Found,
    Done,
    /// The iteration's own node cap: it ends, unfinished.
    Capped,
    /// The caller's slice or the question's budget: it pauses, and goes on
    /// where it stopped when the search is resumed.
    Paused,
}

/// One steered search, resumable: a run that ends with its slice pauses the
/// iteration on its line of positions (an explicit stack), and the next run
/// goes on from there.
pub struct Helpmate {
    root: Chess,
    winner: Color,
    steer: Steer,
    tt: KeyMap<u32>,
    iteration: u32,
    depth: i32,
    /// The positions of the line being searched (empty between iterations).
    stack: Vec<Frame>,
    line: Vec<Move>,
    interrupted: bool,
    stale: bool,
    fresh: bool,
    iter_nodes: u64,
    iter_cap: u64,
    stop_at: u64,
    pub nodes: u64,
    /// the moves of the frames on the stack, one after the other (one buffer for
    /// the line spares an allocation a node)
    moves: Vec<(i32, Move)>,
    /// the moves of the position being entered as they are costed (kept for its
    /// allocations)
    sorted: ByCost,
}

impl Helpmate {
    pub fn new(root: &Chess, winner: Color, steer: Steer) -> Helpmate {
        Helpmate {
            root: root.clone(),
            winner,
            steer,
            // sized for the common question, which ends within a few hundred nodes
            tt: KeyMap::with_capacity_and_hasher(TT_START, Default::default()),
            iteration: 0,
            depth: 1,
            stack: Vec::with_capacity(32),
            line: Vec::with_capacity(32),
            interrupted: false,
            stale: false,
            fresh: false,
            iter_nodes: 0,
            iter_cap: 0,
            stop_at: 0,
            nodes: 0,
            moves: Vec::with_capacity(1024),
            sorted: ByCost::with_capacity(64),
        }
    }

    /// Deepen until a mate, a proof, `counter`'s limit or `slice` more nodes.
    pub fn run(&mut self, counter: &mut Counter, slice: u64) -> Outcome {
        self.stop_at = counter.nodes.saturating_add(slice);
        loop {
            if !counter.running() || counter.nodes >= self.stop_at {
                return Outcome::Limit;
            }
            if self.stack.is_empty() {
                // a new iteration
                self.iteration += 1;
                if self.fresh {
                    self.tt.clear();
                }
                self.interrupted = false;
                self.stale = false;
                self.iter_nodes = 0;
                self.iter_cap = ITERATION_NODES * self.depth.max(1) as u64;
                self.line.clear();
                let root = self.root.clone();
                let k = key(&root);
                match self.enter(root, k, self.depth, false, false, counter) {
                    Enter::Mate => return Outcome::Mate(std::mem::take(&mut self.line)),
                    Enter::Leaf | Enter::Pushed => {}
                }
            }
            match self.walk(counter) {
                Flow::Found => {
                    self.stack.clear();
                    self.moves.clear();
                    return Outcome::Mate(std::mem::take(&mut self.line));
                }
                Flow::Paused => return Outcome::Limit,
                Flow::Capped => {
                    // the positions on the line were not searched to the end:
                    // they must not prune later iterations
                    for frame in self.stack.drain(..) {
                        self.tt.remove(&frame.key);
                    }
                    self.moves.clear();
                    self.fresh = false;
                    self.depth += 1;
                }
                Flow::Done if !self.interrupted => {
                    if !self.stale {
                        return Outcome::Exhausted;
                    }
                    self.fresh = true; // the same budget again, leaning on nothing older
                }
                Flow::Done => {
                    self.fresh = false;
                    self.depth += 1;
                }
            }
        }
    }

    /// Enter a position with `left` plies of budget: a leaf, a mate (on the board,
    /// or the winner's move that mates, pushed on the line), or a frame of its
    /// moves, cheapest first.
    fn enter(
        &mut self,
        pos: Chess,
        k: Key,
        left: i32,
        progress: bool,
        semi: bool,
        counter: &mut Counter,
    ) -> Enter {
        if let Some(&v) = self.tt.get(&k)
            && (v & 0xFFFF) as i32 >= left
        {
            if v >> 16 != self.iteration {
                self.stale = true;
            }
            return Enter::Leaf;
        }
        let winner = self.winner;
        if hopeless(&pos, winner) {
            return Enter::Leaf;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.turn() != winner && pos.is_check() {
                Enter::Mate
            } else {
                Enter::Leaf
            };
        }
        if left <= 0 || self.line.len() >= MAX_LINE {
            self.interrupted = true;
            return Enter::Leaf;
        }
        if pos.turn() == winner
            && let Some(m) = self.mate_in_one(&pos, &moves, counter)
        {
            self.line.push(m);
            return Enter::Mate;
        }
        self.tt.insert(k, (self.iteration << 16) | left as u32);
        let mut sorted = std::mem::take(&mut self.sorted);
        self.classify(&pos, &moves, &mut sorted);
        let start = self.moves.len();
        sorted.drain_into(&mut self.moves);
        self.sorted = sorted;
        let semi = blocked_order(&pos, winner, self.steer, semi, &mut self.moves[start..]);
        self.stack.push(Frame {
            pos,
            key: k,
            left,
            progress,
            semi,
            start,
            end: self.moves.len(),
            next: start,
        });
        Enter::Pushed
    }

    /// The winner's move among `moves` that mates at once, if any: tried before
    /// any line goes deeper, it is found without walking the other moves' lines,
    /// and the walk never plays a move only to see whether it mates. Only the
    /// moves that give check are played, each a node.
    fn mate_in_one(&mut self, pos: &Chess, moves: &[Move], counter: &mut Counter) -> Option<Move> {
        let checks = Checks::new(pos)?;
        for &m in moves {
            if !checks.gives(m) {
                continue;
            }
            self.nodes += 1;
            self.iter_nodes += 1;
            // (a stop is seen by the walk, at its next move)
            counter.tick();
            if checks.leaves_flight(m) == Some(true) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            if checkmated(&child) {
                return Some(m);
            }
        }
        None
    }

    /// Try the moves of the frames on the stack, depth first, until the
    /// iteration ends, finds a mate or must stop.
    fn walk(&mut self, counter: &mut Counter) -> Flow {
        while let Some(frame) = self.stack.last_mut() {
            let Some(&(cost, m)) = self.moves[..frame.end].get(frame.next) else {
                // every move tried: back to the position before
                self.moves.truncate(frame.start);
                self.stack.pop();
                if !self.stack.is_empty() {
                    self.line.pop();
                }
                continue;
            };
            let child_left = match cost {
                FREE => frame.left,
                NORMAL if frame.progress => frame.left,
                _ => frame.left - cost,
            };
            if child_left <= 0 {
                // only a mate on the board would count: the loser's move gives none,
                // and the winner's mates in one were tried on entering the position
                frame.next += 1;
                self.interrupted = true;
                continue;
            }
            // counted before it is played: a pause leaves it to the next run
            self.nodes += 1;
            self.iter_nodes += 1;
            if !counter.tick() || counter.nodes >= self.stop_at {
                return Flow::Paused;
            }
            if self.iter_nodes > self.iter_cap {
                return Flow::Capped;
            }
            frame.next += 1;
            let semi = frame.semi;
            let mut child = frame.pos.clone();
            child.play_unchecked(m);
            self.line.push(m);
            let k = key(&child);
            match self.enter(child, k, child_left, cost == FREE, semi, counter) {
                Enter::Mate => return Flow::Found,
                Enter::Leaf => {
                    self.line.pop();
                }
                Enter::Pushed => {}
            }
        }
        Flow::Done
    }

    /// Each move with its cost, into `out`.
    fn classify(&self, pos: &Chess, moves: &[Move], out: &mut ByCost) {
        // where each side's king and knights head: the mating square or corner
        let [wk_t, wn_t, lk_t, ln_t] = match self.steer.square {
            Some(sq) => [sq; 4],
            None => targets(
                self.steer
                    .corner
                    .unwrap_or_else(|| default_corner(pos, self.winner)),
            ),
        };
        if pos.turn() == self.winner {
            let free_pawns = self.free_pawns(pos.board());
            for &m in moves {
                out.push(winner_cost(m, free_pawns, wk_t, wn_t), m);
            }
        } else {
            let b = pos.board();
            let loser = LoserCosts {
                them: b.by_color(self.winner).0,
                need_promotion: b.by_color(self.winner).0 & (b.pawns().0 | b.rooks_and_queens().0)
                    == 0
                    && needs_loser_promotion(b, self.winner),
                free_pawns: self.steer.free_pawns,
                to_square: self.steer.square.is_some(),
                king_target: lk_t,
                knight_target: ln_t,
            };
            for &m in moves {
                out.push(loser.cost(m), m);
            }
        }
    }

    /// The squares from which the winner's pawn moves cost nothing: every one where
    /// the search frees them or the winner has no rook or queen to mate with, else those
    /// near promotion.
    fn free_pawns(&self, b: &Board) -> u64 {
        let mine = b.by_color(self.winner).0;
        if self.steer.free_pawns || mine & b.rooks_and_queens().0 == 0 {
            ALL
        } else if self.winner == Color::White {
            RANK_7 | RANK_6 | (RANK_6 >> 8)
        } else {
            RANK_2 | RANK_3 | (RANK_3 << 8)
        }
    }
}

/// What a winner's move costs: captures, pawn moves from `free_pawns`, promotions and
/// king or knight moves toward their targets are free.
#[inline]
fn winner_cost(m: Move, free_pawns: u64, king_target: u32, knight_target: u32) -> i32 {
    // (one match a move: the move's accessors would each match again)
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let (from, to) = (u32::from(from), u32::from(to));
            if capture.is_some()
                || (role == Role::Pawn && (free_pawns >> from & 1 != 0 || promotion.is_some()))
            {
                FREE
            } else if role == Role::King {
                if king_distance(to, king_target) < king_distance(from, king_target) {
                    FREE
                } else {
                    NORMAL
                }
            } else if role == Role::Knight
                && knight_distance(to, knight_target) < knight_distance(from, knight_target)
            {
                FREE
            } else {
                NORMAL
            }
        }
        Move::EnPassant { .. } => FREE,
        // castling, and drops (none in chess)
        _ => NORMAL,
    }
}

/// How the loser's moves cost in one position.
struct LoserCosts {
    /// the winner's units
    them: u64,
    /// the winner has too little to mate unless the loser promotes (to a minor piece)
    need_promotion: bool,
    free_pawns: bool,
    /// the search heads for one square (its pieces step toward it for free)
    to_square: bool,
    king_target: u32,
    knight_target: u32,
}

impl LoserCosts {
    /// What a loser's move costs: moves toward the targets are free, captures and
    /// king moves onto the winner's units a waste.
    #[inline]
    fn cost(&self, m: Move) -> i32 {
        // what a move costs by its kind alone (the loser promoting or not)
        let cost = if self.need_promotion {
            let heavy = matches!(m.promotion(), Some(Role::Queen | Role::Rook));
            if m.role() == Role::Pawn && !heavy {
                FREE
            } else {
                WASTE
            }
        } else {
            NORMAL
        };
        let (lk_t, ln_t) = (self.king_target, self.knight_target);
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                ..
            } => {
                let (from, to) = (u32::from(from), u32::from(to));
                match role {
                    Role::King if king_distance(to, lk_t) < king_distance(from, lk_t) => FREE,
                    Role::King if self.them >> to & 1 != 0 => WASTE,
                    Role::King => cost,
                    Role::Knight if knight_distance(to, ln_t) < knight_distance(from, ln_t) => FREE,
                    Role::Bishop | Role::Rook | Role::Queen
                        if capture.is_none()
                            && self.to_square
                            && king_distance(to, ln_t) < king_distance(from, ln_t) =>
                    {
                        FREE
                    }
                    _ if capture.is_some() => WASTE,
                    Role::Pawn if self.free_pawns => FREE,
                    _ => cost,
                }
            }
            Move::EnPassant { .. } => WASTE,
            // castling, and drops (none in chess)
            _ => cost,
        }
    }
}

/// Moves with their costs, cheapest first, in order among equals: one bucket a cost
/// (a general stable sort took a tenth of the engine's time).
#[derive(Default)]
struct ByCost {
    free: Vec<(i32, Move)>,
    normal: Vec<(i32, Move)>,
    waste: Vec<(i32, Move)>,
}

impl ByCost {
    fn with_capacity(n: usize) -> ByCost {
        ByCost {
            free: Vec::with_capacity(n),
            normal: Vec::with_capacity(n),
            waste: Vec::with_capacity(n),
        }
    }

    #[inline]
    fn push(&mut self, cost: i32, m: Move) {
        match cost {
            FREE => self.free.push((cost, m)),
            NORMAL => self.normal.push((cost, m)),
            _ => self.waste.push((cost, m)),
        }
    }

    /// The moves, cheapest first, onto the end of `out`; the buckets are left empty.
    fn drain_into(&mut self, out: &mut Vec<(i32, Move)>) {
        for bucket in [&mut self.free, &mut self.normal, &mut self.waste] {
            out.extend_from_slice(bucket);
            bucket.clear();
        }
    }
}

/// At least four pairs of rammed pawns, and every file with a pawn that may
/// still move of one colour has one of the other.
fn structure_blocked(pos: &Chess) -> bool {
    let b = pos.board();
    let white = (b.pawns() & b.white()).0;
    let black = (b.pawns() & b.black()).0;
    if ((white << 8) & black).count_ones() < 4 {
        return false;
    }
    files(white & !RANK_7) == files(black & !RANK_2)
}

/// The files holding a square of `bb`, as 8 bits.
fn files(mut bb: u64) -> u64 {
    bb |= bb >> 32;
    bb |= bb >> 16;
    bb |= bb >> 8;
    bb & 0xFF
}

/// Re-cost the moves where only kings, bishops and a blocked pawn structure
/// stand: where a white pawn and a black pawn face each other with one square
/// between (now or earlier on the line: `semi`), the winner's captures are
/// free, the kings' moves toward that square too, other king moves cost one
/// and the rest three; otherwise, where the loser has two bishops, the kings
/// and bishops heading for their mating targets are free. Every move is still
/// tried. Returns whether the line is semi-blocked.
fn blocked_order(
    pos: &Chess,
    winner: Color,
    steer: Steer,
    semi: bool,
    costed: &mut [(i32, Move)],
) -> bool {
    let b = pos.board();
    if (b.knights() | b.rooks_and_queens()).any() || !structure_blocked(pos) {
        return semi;
    }
    let white = (b.pawns() & b.white()).0;
    let black = (b.pawns() & b.black()).0;
    let between = (white << 8) & (black >> 8);
    let target = (between != 0).then(|| between.trailing_zeros());
    let winners_turn = pos.turn() == winner;
    let toward = |m: &Move, t: u32| {
        m.from()
            .is_some_and(|f| king_distance(u32::from(m.to()), t) < king_distance(u32::from(f), t))
    };
    if target.is_some() || semi {
        for (cost, m) in costed.iter_mut() {
            *cost = if winners_turn && m.is_capture() {
                FREE
            } else if m.role() == Role::King {
                if target.is_some_and(|t| toward(m, t)) {
                    FREE
                } else {
                    NORMAL
                }
            } else {
                WASTE
            };
        }
        costed.sort_by_key(|&(cost, _)| cost);
        return true;
    }
    if (b.bishops() & b.by_color(!winner)).count() < 2 {
        return false;
    }
    let corner = steer.corner.unwrap_or_else(|| default_corner(pos, winner));
    let [wk_t, wn_t, lk_t, ln_t] = targets(corner);
    for (cost, m) in costed.iter_mut() {
        if matches!(m.role(), Role::King | Role::Bishop) {
            let king = m.role() == Role::King;
            let t = match (winners_turn, king) {
                (true, true) => wk_t,
                (true, false) => wn_t,
                (false, true) => lk_t,
                (false, false) => ln_t,
            };
            if toward(m, t) {
                *cost = FREE;
            }
        }
    }
    costed.sort_by_key(|&(cost, _)| cost);
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::budget::Budget;
    use crate::unwinnable::testing::{pos, replays_to_mate};

    fn search(fen: &str, winner: Color) -> Outcome {
        let p = pos(fen);
        let mut counter = Counter::new(1_000_000, &Budget::default());
        let steer = Steer {
            corner: None,
            free_pawns: false,
            square: None,
        };
        Helpmate::new(&p, winner, steer).run(&mut counter, u64::MAX)
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        let m = text.parse::<shakmaty::uci::UciMove>().expect("UCI");
        m.to_move(pos).expect("a legal move")
    }

    #[test]
    fn moves_toward_the_targets_are_free() {
        let pos = crate::unwinnable::testing::pos;
        // toward h8 the rook's moves cost as usual, the king's too when not closer,
        // the knight's closer one is free
        let p = pos("8/8/8/8/3k4/8/8/K1N4R w - - 0 1");
        let winner = |m: &str| winner_cost(uci(&p, m), 0, 63, 63);
        assert_eq!(
            [winner("h1h8"), winner("a1a2"), winner("c1d3")],
            [NORMAL, NORMAL, FREE]
        );
        let loser = LoserCosts {
            them: 0,
            need_promotion: false,
            free_pawns: false,
            to_square: false,
            king_target: 63,
            knight_target: 63,
        };
        let q = pos("8/8/8/8/3k4/8/8/K1N4R b - - 0 1");
        assert_eq!(
            [loser.cost(uci(&q, "d4e5")), loser.cost(uci(&q, "d4c3"))],
            [FREE, NORMAL]
        );
    }

    #[test]
    fn finds_a_mate_in_one() {
        assert_eq!(
            search("7k/8/6K1/8/8/8/8/R7 w - - 0 1", Color::White),
            Outcome::Mate(vec![Move::Normal {
                role: Role::Rook,
                from: shakmaty::Square::A1,
                capture: None,
                to: shakmaty::Square::A8,
                promotion: None
            }])
        );
    }

    #[test]
    fn finds_longer_mates() {
        for (fen, winner) in [
            ("kb6/8/1K6/8/8/8/8/3B4 w - - 0 1", Color::White),
            ("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", Color::Black),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Color::White,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Color::Black,
            ),
        ] {
            match search(fen, winner) {
                Outcome::Mate(line) => assert!(replays_to_mate(fen, &line, winner), "{fen}"),
                other => panic!("{fen}: {other:?}"),
            }
        }
    }

    #[test]
    fn proves_by_exhaustion() {
        assert_eq!(
            search("8/8/8/8/8/2k5/8/K1q5 w - - 0 1", Color::White),
            Outcome::Exhausted
        );
    }
}
