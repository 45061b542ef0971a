//! Lines of moves: forced moves, the short exhaustive proof that "every line of
//! at most N plies ends the game or leaves the would-be winner without mating
//! material", and the shortening of a helpmate line found by a search.

use shakmaty::{Chess, Color, Move, Position, Role};

use super::budget::Counter;
use super::checks::{king_can_move, king_step};
use super::key::{KeyMap, KeySet, key};
use super::material::{Material, hopeless, material};

/// How a sequence of forced moves (each the only legal move) ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedEnd {
    /// A stalemate.
    Stalemate,
    /// The would-be winner is checkmated.
    Mated,
    /// Too little material is left to the would-be winner.
    Material(Material),
    /// The forced moves come back to a position: they go on for ever.
    Cycle,
}

/// What playing the forced moves from a position gives.
pub enum Forced {
    /// The would-be winner mates at the end of them.
    Mate,
    /// They end without a mate possible.
    End(ForcedEnd),
    /// A position with a choice of moves (or the limit) is reached.
    Open,
}

/// Play the moves that are the only legal move, at most `limit`, appending
/// them to `line`; `pos` becomes the position reached.
pub fn play_forced(pos: &mut Chess, winner: Color, limit: usize, line: &mut Vec<Move>) -> Forced {
    let mut seen = KeySet::default();
    for _ in 0..limit {
        let moves = pos.legal_moves();
        match moves.len() {
            0 if pos.is_check() && pos.turn() != winner => return Forced::Mate,
            0 if pos.is_check() => return Forced::End(ForcedEnd::Mated),
            0 => return Forced::End(ForcedEnd::Stalemate),
            1 => {}
            _ => return Forced::Open,
        }
        if !seen.insert(key(pos)) {
            return Forced::End(ForcedEnd::Cycle);
        }
        pos.play_unchecked(moves[0]);
        line.push(moves[0]);
        if let Some(m) = material(pos, winner) {
            return Forced::End(ForcedEnd::Material(m));
        }
    }
    Forced::Open
}

/// The ends of a short exhaustive proof: lines that end the game, lines that
/// leave too little material.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ends {
    pub game_over: u32,
    pub material: u32,
    /// The longest line, in plies.
    pub longest: u32,
}

/// Every line of at most `plies` plies from `pos` ends the game without a mate
/// by `winner`, or leaves `winner` too little material: the ends counted, or
/// `None` (a line goes on, a mate, or more than `max_nodes` moves tried).
pub fn every_line_ends(
    pos: &Chess,
    winner: Color,
    plies: u32,
    max_nodes: u64,
    counter: &mut Counter,
) -> Option<Ends> {
    let mut lines = Lines {
        winner,
        max_nodes,
        spent: 0,
        ends: Ends::default(),
        counter,
    };
    lines.end_within(pos, 0, plies).then_some(lines.ends)
}

/// The proof of [`every_line_ends`] under way: the moves tried and the ends counted.
struct Lines<'a> {
    winner: Color,
    max_nodes: u64,
    spent: u64,
    ends: Ends,
    counter: &'a mut Counter,
}

impl Lines<'_> {
    /// Every line of at most `plies` plies from `pos` (`played` plies into the proof)
    /// ends.
    fn end_within(&mut self, pos: &Chess, played: u32, plies: u32) -> bool {
        if plies == 0 && king_can_move(pos, pos.turn()) {
            return false; // the line goes on (the common case: no move list needed)
        }
        // most lines go on with a quiet king step on each side: that line is tried
        // first, without generating the other moves, which are looked at only if it ends
        let step = if plies > 0 { king_step(pos) } else { None };
        if let Some(m) = step
            && !self.end_after(pos, m, played, plies)
        {
            return false;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.is_check() && pos.turn() != self.winner {
                return false;
            }
            self.ends.game_over += 1;
            self.ends.longest = self.ends.longest.max(played);
            return true;
        }
        plies > 0
            && moves
                .iter()
                .filter(|&&m| Some(m) != step)
                .all(|&m| self.end_after(pos, m, played, plies))
    }

    /// Every line that starts with `m` ends within the plies left.
    fn end_after(&mut self, pos: &Chess, m: Move, played: u32, plies: u32) -> bool {
        self.spent += 1;
        if self.spent > self.max_nodes || !self.counter.tick() {
            return false;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        if hopeless(&child, self.winner) {
            self.ends.material += 1;
            self.ends.longest = self.ends.longest.max(played + 1);
            return true;
        }
        self.end_within(&child, played + 1, plies - 1)
    }
}

/// `line` (a helpmate from `root`) with its detours cut: wherever a legal move
/// leads straight to a later position of the line, it is played instead of
/// the moves in between, until no such move is left. The searches' lines head
/// for a mating corner with free moves and can wander; a person reads the
/// shorter one. Counts the moves tried on `counter`: only from positions
/// that one move could turn into a later one, and only the moves that land
/// on a square where such a position differs (see [`differ`]).
pub fn shorten(root: &Chess, mut line: Vec<Move>, counter: &mut Counter) -> Vec<Move> {
    loop {
        let mut positions = Vec::with_capacity(line.len() + 1);
        positions.push(root.clone());
        for &m in &line {
            let mut next = positions[positions.len() - 1].clone();
            next.play_unchecked(m);
            positions.push(next);
        }
        let mut at = KeyMap::default();
        for (i, p) in positions.iter().enumerate() {
            at.insert(key(p), i);
        }
        let mut out = Vec::with_capacity(line.len());
        let mut i = 0;
        while i < line.len() {
            let (mut to, mut by) = (i + 1, line[i]);
            // the squares where a later position, with the other side to move as a
            // move leaves it, differs from this one by what one move changes
            let near = (i + 3..positions.len())
                .step_by(2)
                .map(|j| differ(&positions[i], &positions[j]))
                .filter(|d| (1..=4).contains(&d.count_ones()))
                .fold(0, |all, d| all | d);
            if near == 0 {
                out.push(by);
                i = to;
                continue;
            }
            // a move changes the square it lands on (castling, given as the king
            // taking its rook, is tried whatever it changes)
            for m in positions[i].legal_moves() {
                if !m.is_castle() && near >> u32::from(m.to()) & 1 == 0 {
                    continue;
                }
                counter.tick();
                let mut child = positions[i].clone();
                child.play_unchecked(m);
                if let Some(&j) = at.get(&key(&child))
                    && j > to
                {
                    (to, by) = (j, m);
                }
            }
            out.push(by);
            i = to;
        }
        if out.len() == line.len() {
            return out;
        }
        line = out;
    }
}

/// The squares where the boards of `a` and `b` differ: one to four after one
/// move (two squares; three by en passant, four by castling), a cheap test
/// that spares generating the moves of most positions of a line.
fn differ(a: &Chess, b: &Chess) -> u64 {
    let (a, b) = (a.board(), b.board());
    let mut squares = (a.white() ^ b.white()) | (a.black() ^ b.black());
    for role in Role::ALL {
        squares |= a.by_role(role) ^ b.by_role(role);
    }
    squares.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::budget::Budget;
    use crate::unwinnable::testing::pos;

    #[test]
    fn forced_capture_leaves_a_bare_king() {
        let mut p = pos("7k/6Q1/8/8/8/8/8/K7 b - - 0 1");
        let mut line = Vec::new();
        assert!(matches!(
            play_forced(&mut p, Color::White, 10, &mut line),
            Forced::End(ForcedEnd::Material(Material::BareKing))
        ));
        assert_eq!(line.len(), 1);
    }

    #[test]
    fn detours_are_cut() {
        let fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";
        let p = pos(fen);
        let mut at = p.clone();
        let mut line = Vec::new();
        for uci in ["a1a2", "h8g8", "a2a1", "g8h8", "a1a8"] {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&at)
                .unwrap();
            at.play_unchecked(m);
            line.push(m);
        }
        assert_eq!(line.len(), 5);
        let mut counter = Counter::new(u64::MAX, &Budget::default());
        let short = shorten(&p, line, &mut counter);
        assert_eq!(short.len(), 1);
        assert!(crate::unwinnable::testing::replays_to_mate(
            fen,
            &short,
            Color::White
        ));
    }

    #[test]
    fn every_line_ends_in_three_plies() {
        let p = pos("8/8/8/8/8/7p/5KR1/7k b - - 0 58");
        let mut counter = Counter::new(u64::MAX, &Budget::default());
        let ends = every_line_ends(&p, Color::White, 3, 300, &mut counter).expect("a proof");
        assert_eq!(ends.game_over + ends.material, 18);
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(
            every_line_ends(&p, Color::White, 7, 300, &mut counter),
            None
        );
    }
}
