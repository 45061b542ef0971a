//! The hunt for a helpmate alone: full mode's steered searches without its visits
//! and proofs, in rounds whose slices double, one round at a time.
//!
//! Full mode shares its nodes between the searches, which find mates, and the
//! visits, which prove there is none. Where only a mate is of use (a position is
//! live once either side can mate), the deep helpmates of endings with a few minor
//! pieces come for a fraction of full mode's nodes, and two hunts (one a colour)
//! taking turns find the easier side's mate. A line a hunt finds is a mate, played
//! through from the position; a hunt that finds none proves nothing.

use shakmaty::{Chess, Color, Move, Position};

use super::budget::{Budget, Counter};
use super::lines::{Forced, play_forced};
use super::material::material;
use super::search::{Helpmate, Outcome, Steer};
use super::{FIRST_SLICE, FORCED_PLIES, steerings};

/// One colour's hunt, resumable round by round.
pub struct Hunt {
    color: Color,
    /// the position after the forced moves, and those moves
    pos: Chess,
    forced: Vec<Move>,
    /// each search, set up when its first turn comes
    searches: Vec<(Steer, Option<Helpmate>)>,
    slice: u64,
    counter: Counter,
    /// the mate found, or `None` once the hunt is over without one
    state: State,
}

enum State {
    Going,
    Mate(Vec<Move>),
    Over,
}

impl Hunt {
    /// A hunt for `color`'s mate on `pos` within `nodes` (and `budget`'s deadline and
    /// interrupt test).
    #[must_use]
    pub fn new(pos: &Chess, color: Color, nodes: u64, budget: &Budget) -> Hunt {
        let counter = Counter::new(nodes, budget);
        let mut hunt = Hunt {
            color,
            pos: pos.clone(),
            forced: Vec::new(),
            searches: Vec::new(),
            slice: FIRST_SLICE,
            counter,
            state: State::Over,
        };
        if pos.is_checkmate() {
            if pos.turn() != color {
                hunt.state = State::Mate(Vec::new());
            }
            return hunt;
        }
        if material(pos, color).is_some() {
            return hunt;
        }
        match play_forced(&mut hunt.pos, color, FORCED_PLIES, &mut hunt.forced) {
            Forced::Mate => hunt.state = State::Mate(hunt.forced.clone()),
            Forced::End(_) => {}
            Forced::Open => {
                hunt.searches = steerings(&hunt.pos, color)
                    .into_iter()
                    .map(|steer| (steer, None))
                    .collect();
                hunt.state = State::Going;
            }
        }
        hunt
    }

    /// The nodes spent so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.counter.nodes
    }

    /// Whether the hunt is still going (no mate found, nodes left).
    #[must_use]
    pub fn going(&self) -> bool {
        matches!(self.state, State::Going)
    }

    /// The mate found: a line from the position that ends in `color`'s checkmate.
    #[must_use]
    pub fn mate(&self) -> Option<&[Move]> {
        match &self.state {
            State::Mate(line) => Some(line),
            _ => None,
        }
    }

    /// One round: each search gets the round's slice; the next round's is twice as long.
    pub fn round(&mut self) {
        if !self.going() {
            return;
        }
        for (steer, search) in &mut self.searches {
            let search = search.get_or_insert_with(|| Helpmate::new(&self.pos, self.color, *steer));
            match search.run(&mut self.counter, self.slice) {
                Outcome::Mate(line) => {
                    let whole = self.forced.iter().copied().chain(line).collect();
                    self.state = State::Mate(whole);
                    return;
                }
                // every reachable position searched: no mate (a hunt proves nothing)
                Outcome::Exhausted => {
                    self.state = State::Over;
                    return;
                }
                Outcome::Limit => {}
            }
        }
        if !self.counter.running() {
            self.state = State::Over;
        }
        self.slice = self.slice.saturating_mul(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::testing::{pos, replays_to_mate};
    use crate::unwinnable::{Answer, Mode, can_checkmate};

    /// Hunt until a mate or the end; the nodes spent.
    fn hunt(fen: &str, color: Color, nodes: u64) -> Hunt {
        let mut h = Hunt::new(&pos(fen), color, nodes, &Budget::default());
        while h.going() {
            h.round();
        }
        h
    }

    #[test]
    fn finds_deep_minor_piece_mates_for_less_than_full_mode() {
        // K+B v K+N: the bishop mates with the knight in the way, deep in the tree
        for (fen, color) in [
            ("8/8/2N5/6k1/8/3bK3/8/8 w - - 0 78", Color::Black),
            ("8/8/4k3/8/8/4NK2/8/b7 w - - 0 65", Color::Black),
        ] {
            let h = hunt(fen, color, 1 << 20);
            let line = h.mate().expect("a mate");
            assert!(replays_to_mate(fen, line, color), "{fen}");
            let full = can_checkmate(&pos(fen), color, Mode::Full, &Budget::default());
            assert!(matches!(full.answer, Answer::Can(_)));
            assert!(
                h.nodes() < full.nodes,
                "{fen}: {} v {}",
                h.nodes(),
                full.nodes
            );
        }
    }

    #[test]
    fn finds_no_mate_where_there_is_none() {
        // a bare king, K+N v K, and a king behind locked pawns
        for (fen, color) in [
            ("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", Color::Black),
            ("8/8/8/4k3/8/8/8/K2n4 w - - 0 1", Color::Black),
            ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", Color::White),
        ] {
            let h = hunt(fen, color, 20_000);
            assert!(h.mate().is_none(), "{fen}");
            assert!(!h.going());
            assert!(h.nodes() <= 20_001 + 400, "{fen}: {}", h.nodes());
        }
    }

    #[test]
    fn a_mate_on_the_board() {
        // White is mated already: Black's mate, and none for White
        let mated = "7k/8/8/8/8/8/5PPP/r5K1 w - - 0 1";
        assert_eq!(hunt(mated, Color::Black, 10).mate(), Some(&[][..]));
        assert!(hunt(mated, Color::White, 10).mate().is_none());
    }
}
