//! What a question may spend: nodes (so that a verdict never depends on the
//! machine's load), and on request a deadline and an interrupt test.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// Asked now and then during a search; `true` stops it (Ctrl-C in Python).
#[derive(Clone)]
pub struct Interrupt(pub Arc<dyn Fn() -> bool + Send + Sync>);

impl fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Interrupt")
    }
}

/// Limits of one question. `max_nodes: None` is the default budget of the
/// mode; the deadline and the interrupt are explicit opt-ins.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    pub max_nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub interrupt: Option<Interrupt>,
    /// Stop after this many nodes, as if the budget were spent there, without changing
    /// how the question is searched: a question that ends before gets the answer it gets
    /// under `max_nodes` alone, node for node (a first look, to be asked again in full).
    pub stop_after: Option<u64>,
}

/// Why a question was left undecided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Quick mode decides only what its cheap tests can.
    Quick,
    /// The node budget ran out.
    Nodes,
    /// The deadline passed.
    Time,
    /// The interrupt test said stop.
    Interrupted,
}

/// How often (in nodes) the clock and the interrupt test are read.
const CHECK_EVERY: u64 = 2048;

/// The node counter shared by every stage of one question.
pub struct Counter {
    pub nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    interrupt: Option<Interrupt>,
    next_check: u64,
    pub stopped: Option<Stop>,
}

impl Counter {
    pub fn new(limit: u64, budget: &Budget) -> Counter {
        Counter {
            nodes: 0,
            limit,
            deadline: budget.deadline,
            interrupt: budget.interrupt.clone(),
            next_check: CHECK_EVERY,
            stopped: None,
        }
    }

    /// Count one node; `false` once the question must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            self.check_outside();
        }
        if self.nodes > self.limit && self.stopped.is_none() {
            self.stopped = Some(Stop::Nodes);
        }
        self.stopped.is_none()
    }

    fn check_outside(&mut self) {
        if self.stopped.is_some() {
            return;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some(Stop::Time);
        } else if self.interrupt.as_ref().is_some_and(|i| (i.0)()) {
            self.stopped = Some(Stop::Interrupted);
        }
    }

    pub fn running(&self) -> bool {
        self.stopped.is_none() && self.nodes <= self.limit
    }
}
