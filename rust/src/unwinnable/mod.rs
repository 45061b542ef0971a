//! Can this player still checkmate by some sequence of legal moves?
//!
//! PLACEHOLDER INTERFACE (issue 46 replaces the body): the signatures below are what the rest of
//! the core (the rules over a game) calls. Today it decides only by material, which is sound
//! (a `Cannot` is a proof) and incomplete (everything else is `Unknown`).

use shakmaty::{Chess, Color, Move, Position};

/// How hard to look: `Quick` is the cheap test run after every ply; `Full` decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Quick,
    Full,
}

/// Limits of one question. Nodes make verdicts independent of machine load; the
/// deadline is an explicit opt-in.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    pub max_nodes: Option<u64>,
    pub deadline: Option<std::time::Instant>,
}

/// Why the player cannot mate, as a code (Python turns it into words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Too little material for any mate (K v K, K+B v K, ...).
    Material,
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub answer: Answer,
    pub nodes: u64,
}

/// Can `color` still checkmate from `pos`?
pub fn can_checkmate(pos: &Chess, color: Color, _mode: Mode, _budget: &Budget) -> Verdict {
    let answer = if pos.board().by_color(color) == pos.board().kings() & pos.board().by_color(color)
        || pos.has_insufficient_material(color)
    {
        Answer::Cannot(Reason::Material)
    } else {
        Answer::Unknown
    };
    Verdict { answer, nodes: 0 }
}

/// Is `pos` dead (neither side can mate, FIDE 5.2.2)? `None` when undecided.
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
