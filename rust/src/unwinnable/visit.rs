//! The breadth-first visit of every position reachable from the root.
//!
//! Positions are met in order of their distance from the root, so the first
//! mate found is a shortest helpmate; positions where the would-be winner has
//! lost all mating material are not expanded. A visit that runs out of
//! positions proves that no mate is reachable. It is resumable: each run
//! expands positions until its slice of nodes is spent.

use std::collections::VecDeque;

use shakmaty::{Chess, Color, Move, Position};

use super::budget::Counter;
use super::key::{KeyMap, key};
use super::material::hopeless;
use super::search::Outcome;

pub struct Visit {
    winner: Color,
    /// Every position met, by key: its index in `parents`.
    index: KeyMap<u32>,
    /// By index: the index of the position it was first reached from, and the move.
    parents: Vec<(u32, Option<Move>)>,
    queue: VecDeque<(u32, Chess)>,
}

impl Visit {
    pub fn new(root: &Chess, winner: Color) -> Visit {
        let mut index = KeyMap::default();
        index.insert(key(root), 0);
        let mut queue = VecDeque::new();
        queue.push_back((0, root.clone()));
        Visit { winner, index, parents: vec![(0, None)], queue }
    }

    /// Positions met so far.
    pub fn positions(&self) -> u64 {
        self.parents.len() as u64
    }

    /// Expand positions until a mate, the end of them, `counter`'s limit or
    /// `slice` more nodes.
    pub fn run(&mut self, counter: &mut Counter, slice: u64) -> Outcome {
        let stop_at = counter.nodes.saturating_add(slice);
        while counter.running() && counter.nodes < stop_at {
            let Some((i, pos)) = self.queue.pop_front() else {
                return Outcome::Exhausted;
            };
            let moves = pos.legal_moves();
            if moves.is_empty() {
                if pos.is_check() && pos.turn() != self.winner {
                    return Outcome::Mate(self.line(i));
                }
                continue;
            }
            for &m in &moves {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let k = key(&child);
                if self.index.contains_key(&k) {
                    continue;
                }
                counter.tick();
                let j = self.parents.len() as u32;
                self.index.insert(k, j);
                self.parents.push((i, Some(m)));
                if !hopeless(&child, self.winner) {
                    self.queue.push_back((j, child));
                }
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
