//! A game's history: occurrences of each position (9.2.3 identity) and the no-progress
//! counter, so that repetition and move-count rules cost O(1) a move.
//!
//! A position can recur only after the last irreversible move (a capture, a pawn move or
//! a change of castling rights): material, pawns and rights only ever decrease. So the
//! history keeps the "window" of positions since that move, and the list of those that
//! stood twice in it; a 9.2.1 claim (intended move) is possible only when that list holds
//! a position with the opponent to move.
//!
//! `History::batch` keeps only the window (memory flat over any game); `History::live`
//! keeps every position so that moves can be taken back.

use std::borrow::Cow;

use shakmaty::{Chess, Color, Move, Position};

use crate::identity::{Key, KeyMap};

/// The plies at which a position stood: most positions stand once, and one ply is
/// kept without an allocation.
#[derive(Clone, Debug, Default)]
enum Plies {
    #[default]
    None,
    One(u32),
    Many(Vec<u32>),
}

impl Plies {
    fn push(&mut self, ply: u32) {
        *self = match std::mem::take(self) {
            Plies::None => Plies::One(ply),
            Plies::One(first) => Plies::Many(vec![first, ply]),
            Plies::Many(mut plies) => {
                plies.push(ply);
                Plies::Many(plies)
            }
        };
    }

    fn pop(&mut self) {
        match self {
            Plies::One(_) => *self = Plies::None,
            Plies::Many(plies) => {
                plies.pop();
            }
            Plies::None => {}
        }
    }

    fn as_slice(&self) -> &[u32] {
        match self {
            Plies::None => &[],
            Plies::One(ply) => std::slice::from_ref(ply),
            Plies::Many(plies) => plies,
        }
    }

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Keys a batch history's window holds before they are counted in a map: most windows
/// are shorter, and a scan of their keys (every second one: the same side to move)
/// costs less than hashing; a long window (a record of shuffling moves) gets the map,
/// so a ply never costs time that grows with the game.
const SCAN: usize = 48;

#[derive(Clone)]
pub struct History {
    pos: Chess,
    ply: u32,
    /// the keys from ply `first` on: every ply (live) or the current window (batch)
    keys: Vec<Key>,
    first: u32,
    /// plies at which each position stood (live: since the start; batch: in the window,
    /// once it is longer than [`SCAN`] keys)
    occ: KeyMap<Plies>,
    /// whether `occ` holds the occurrences (always in a live history); if not, they are
    /// read off `keys`
    mapped: bool,
    /// plies at which a window began (batch: only the current window's)
    windows: Vec<u32>,
    /// positions that stood twice in the current window
    doubles: Vec<Key>,
    /// the no-progress count (the position's own, but for a position it cannot hold)
    clock: u32,
    /// whether `pos` is the position on the board: false after a position shakmaty
    /// refuses (an illegal move that stood in the live arbiter), whose key and count
    /// alone are known
    exact: bool,
    /// live only: the state before each move, to take moves back
    undo: Option<Vec<(Chess, u32, bool)>>,
}

impl History {
    /// A history that only goes forward and forgets what can never recur.
    #[must_use]
    pub fn batch(pos: Chess) -> History {
        History::new(pos, false)
    }

    /// A history that keeps every position and can take moves back.
    #[must_use]
    pub fn live(pos: Chess) -> History {
        History::new(pos, true)
    }

    fn new(pos: Chess, live: bool) -> History {
        let k = Key::of(&pos);
        let mut occ = KeyMap::default();
        let mut keys;
        if live {
            // sized for a game of usual length, which then grows neither
            occ.reserve(64);
            occ.insert(k, Plies::One(0));
            keys = Vec::with_capacity(128);
        } else {
            // a batch window seldom needs more
            keys = Vec::with_capacity(SCAN + 1);
        }
        keys.push(k);
        History {
            clock: pos.halfmoves(),
            exact: true,
            pos,
            ply: 0,
            keys,
            first: 0,
            occ,
            mapped: live,
            windows: vec![0],
            doubles: Vec::new(),
            undo: live.then(Vec::new),
        }
    }

    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.clock
    }

    /// Whether [`History::position`] is the position on the board (always, but after a
    /// position shakmaty refuses: then only the key and the count are known).
    #[must_use]
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// A live history whose start position shakmaty refuses: only its key and count
    /// are known (`pos` stands in for it and is not used for moves).
    #[must_use]
    pub fn live_inexact(k: Key, clock: u32, pos: Chess) -> History {
        let mut h = History::new(pos, true);
        h.keys = vec![k];
        h.occ.clear();
        h.occ.insert(k, Plies::One(0));
        h.clock = clock;
        h.exact = false;
        h
    }

    #[must_use]
    pub fn key(&self) -> Key {
        self.keys[self.keys.len() - 1]
    }

    /// The key after `ply` plies, if the history still has it.
    #[must_use]
    pub fn key_at(&self, ply: u32) -> Option<Key> {
        ply.checked_sub(self.first)
            .and_then(|i| self.keys.get(i as usize))
            .copied()
    }

    /// Play a legal move; returns how often the new position has now stood.
    ///
    /// ```
    /// use _core::board::{parse_san, start};
    /// use _core::history::History;
    ///
    /// let mut h = History::live(start());
    /// let mut seen = 0;
    /// for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     let m = parse_san(h.position(), san).unwrap();
    ///     seen = h.push(m);
    /// }
    /// assert_eq!((h.ply(), seen), (4, 2)); // the start position, for the second time
    /// ```
    pub fn push(&mut self, m: Move) -> usize {
        debug_assert!(
            self.exact,
            "a move played on a position the history does not hold"
        );
        let before = self.pos.castles().castling_rights();
        self.save();
        self.pos.play_unchecked(m);
        self.clock = self.pos.halfmoves();
        let k = Key::of(&self.pos);
        self.record(k, self.clock == 0 || before.0 != k.castling)
    }

    /// Record a position that python-chess holds and shakmaty may refuse (an illegal move
    /// that stood, in the live arbiter), with its no-progress count: `pos` is that
    /// position when shakmaty holds it.
    pub fn push_key(&mut self, k: Key, clock: u32, pos: Option<Chess>) -> usize {
        let irreversible = clock == 0 || k.castling != self.key().castling;
        self.save();
        self.exact = pos.is_some();
        if let Some(p) = pos {
            self.pos = p;
        }
        self.clock = clock;
        self.record(k, irreversible)
    }

    fn save(&mut self) {
        if let Some(undo) = self.undo.as_mut() {
            undo.push((self.pos.clone(), self.clock, self.exact));
        }
    }

    fn record(&mut self, k: Key, irreversible: bool) -> usize {
        self.ply += 1;
        let ply = self.ply;
        if irreversible {
            // nothing from before can ever stand on the board again
            self.doubles.clear();
            if self.undo.is_some() {
                self.windows.push(ply);
            } else {
                self.windows[0] = ply;
                self.keys.clear();
                self.first = ply;
                if self.mapped {
                    self.occ.clear();
                    self.mapped = false;
                }
            }
            self.keys.push(k);
            if self.mapped {
                self.occ.insert(k, Plies::One(ply));
            }
            return 1;
        }
        self.keys.push(k);
        if !self.mapped && self.keys.len() > SCAN {
            self.map_window();
        }
        let n = if self.mapped {
            let occ = self.occ.entry(k).or_default();
            occ.push(ply);
            occ.len()
        } else {
            self.scan(&k).count()
        };
        if n == 2 {
            self.doubles.push(k);
        }
        n
    }

    /// The plies of the window at which `k` stood, in order (a batch history whose window
    /// is not mapped).
    fn scan<'a>(&'a self, k: &'a Key) -> impl Iterator<Item = u32> + 'a {
        // equal keys have the same side to move, so only every second key of the window
        // can equal `k`: those of its parity
        let last = self.keys.len() - 1;
        let parity = if k.white_to_move == self.keys[last].white_to_move {
            last % 2
        } else {
            (last + 1) % 2
        };
        self.keys
            .iter()
            .enumerate()
            .skip(parity)
            .step_by(2)
            .filter(move |(_, o)| *o == k)
            .map(move |(i, _)| self.first + i as u32)
    }

    /// Count the occurrences of the window's positions, but the last, in the map (the
    /// window has grown long).
    fn map_window(&mut self) {
        let last = self.keys.len() - 1;
        for (i, k) in self.keys[..last].iter().enumerate() {
            self.occ.entry(*k).or_default().push(self.first + i as u32);
        }
        self.mapped = true;
    }

    /// Take back the last move (live histories only). False when there is none.
    pub fn pop(&mut self) -> bool {
        let Some((prev, clock, exact)) = self.undo.as_mut().and_then(Vec::pop) else {
            return false;
        };
        self.pos = prev;
        self.clock = clock;
        self.exact = exact;
        let ply = self.ply;
        if let Some(k) = self.keys.pop()
            && let Some(occ) = self.occ.get_mut(&k)
        {
            occ.pop();
            if occ.is_empty() {
                self.occ.remove(&k);
            }
        }
        if self.windows.len() > 1 && self.windows[self.windows.len() - 1] == ply {
            self.windows.pop();
        }
        self.ply -= 1;
        let start = self.window_start();
        self.doubles = self
            .occ
            .iter()
            .filter(|(_, plies)| plies.len() >= 2 && plies.as_slice()[0] >= start)
            .map(|(k, _)| *k)
            .collect();
        true
    }

    /// Plies at which `k` stood.
    pub fn occurrences(&self, k: &Key) -> Cow<'_, [u32]> {
        if self.mapped {
            Cow::Borrowed(self.occ.get(k).map_or(&[], Plies::as_slice))
        } else {
            Cow::Owned(self.scan(k).collect())
        }
    }

    /// Plies at which the current position stood.
    #[must_use]
    pub fn current_occurrences(&self) -> Cow<'_, [u32]> {
        self.occurrences(&self.key())
    }

    /// Ply of the last irreversible move: nothing before it can stand again.
    #[must_use]
    pub fn window_start(&self) -> u32 {
        self.windows[self.windows.len() - 1]
    }

    /// The positions that stood twice since the last irreversible move.
    #[must_use]
    pub fn doubles(&self) -> &[Key] {
        &self.doubles
    }

    /// Whether an intended move could make a third occurrence (9.2.1): a position that
    /// stood twice in the window has the opponent to move.
    #[must_use]
    pub fn may_repeat_after_move(&self) -> bool {
        let opp_white = self.turn() == Color::Black;
        self.doubles.iter().any(|k| k.white_to_move == opp_white)
    }

    /// Plies at which the position after the legal move `m` already stood (empty when
    /// it is new: a pawn move, a capture or castling can never repeat a position).
    #[must_use]
    pub fn occurrences_after(&self, m: Move) -> Vec<u32> {
        if m.is_zeroing() || m.is_castle() {
            return Vec::new();
        }
        let mut after = self.pos.clone();
        after.play_unchecked(m);
        self.occurrences_after_key(&Key::of(&after), false)
    }

    /// [`History::occurrences_after`] for a move known by the key of the position it
    /// leads to and whether it is a pawn move or a capture.
    #[must_use]
    pub fn occurrences_after_key(&self, k: &Key, zeroing: bool) -> Vec<u32> {
        if zeroing || k.castling != self.key().castling {
            return Vec::new();
        }
        self.occurrences(k).into_owned()
    }

    /// The side to move (from the key, which is known even where the position is not).
    #[must_use]
    pub fn turn(&self) -> Color {
        if self.key().white_to_move {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Every legal move after which the position would stand for at least the third time
    /// (a 9.2.1 claim), with the plies of its earlier occurrences. Such a move is
    /// reversible, so its target is a position seen twice in the window with the
    /// opponent's units where they are now and the mover's differing on two squares:
    /// the move is read off that difference instead of trying every legal move.
    #[must_use]
    pub fn repeating_moves(&self) -> Vec<(Move, Vec<u32>)> {
        let mut found = Vec::new();
        if self.doubles.is_empty() || !self.exact {
            return found;
        }
        let cur = self.key();
        let turn = self.pos.turn();
        let mut legal = None;
        for k in &self.doubles {
            if k.white_to_move == cur.white_to_move
                || k.units(!turn) != cur.units(!turn)
                || k.castling != cur.castling
                || k.ep != 64
            {
                continue;
            }
            let (before, after) = (cur.units(turn), k.units(turn));
            let (src, dst) = (before & !after, after & !before);
            if src.count_ones() != 1 || dst.count_ones() != 1 {
                continue;
            }
            let moves = legal.get_or_insert_with(|| self.pos.legal_moves());
            let (from, to) = (src.trailing_zeros(), dst.trailing_zeros());
            let Some(m) = moves.iter().find(|m| {
                m.from().map(u32::from) == Some(from)
                    && u32::from(m.to()) == to
                    && m.promotion().is_none()
                    && !m.is_castle()
            }) else {
                continue;
            };
            let plies = self.occurrences_after(*m);
            if plies.len() >= 2 {
                found.push((*m, plies));
            }
        }
        found
    }

    /// The keys of every position still held, from ply `first_ply()` on.
    #[must_use]
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    #[must_use]
    pub fn first_ply(&self) -> u32 {
        self.first
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_san, start};

    fn play(h: &mut History, sans: &str) -> Vec<usize> {
        sans.split_whitespace()
            .map(|s| {
                let m = parse_san(h.position(), s).unwrap();
                h.push(m)
            })
            .collect()
    }

    #[test]
    fn counts_occurrences_from_the_start_position() {
        let mut h = History::batch(start());
        let counts = play(&mut h, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(counts, vec![1, 1, 1, 2, 2, 2, 2, 3]);
        assert_eq!(*h.current_occurrences(), [0, 4, 8]);
        assert_eq!(h.halfmoves(), 8);
    }

    #[test]
    fn finds_the_intended_move_that_repeats() {
        let mut h = History::live(start());
        play(&mut h, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert!(h.may_repeat_after_move());
        let found = h.repeating_moves();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, vec![0, 4]);
        assert!(h.pop());
        assert_eq!(h.ply(), 6);
        assert_eq!(h.doubles().len(), 3);
    }

    #[test]
    fn batch_counts_as_live_does_in_short_and_long_windows() {
        // a window far longer than the keys a batch history scans, then one cut short
        // by a capture, with repetitions of both sides' positions in each
        let shuffle = "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nc6 Ng1 Nb8 ".repeat(6);
        let moves = format!("{shuffle}e4 d5 exd5 Nf6 Nc3 Ng8 Nb1 Nf6 Nc3 Ng8 Nb1");
        let (mut batch, mut live) = (History::batch(start()), History::live(start()));
        let mut mapped = false;
        for san in moves.split_whitespace() {
            let m = parse_san(batch.position(), san).unwrap();
            assert_eq!(batch.push(m), live.push(m), "{san} at {}", live.ply());
            assert_eq!(batch.current_occurrences(), live.current_occurrences());
            assert_eq!(batch.doubles(), live.doubles());
            assert_eq!(batch.repeating_moves(), live.repeating_moves());
            for m in batch.position().legal_moves() {
                assert_eq!(batch.occurrences_after(m), live.occurrences_after(m));
            }
            mapped |= batch.mapped;
        }
        assert!(
            mapped && !batch.mapped,
            "the long window was mapped, the short one not"
        );
        assert_eq!(batch.window_start(), 75);
    }

    #[test]
    fn batch_forgets_what_cannot_recur() {
        let mut h = History::batch(start());
        play(&mut h, "Nf3 Nf6 e4 Ng8 Ng1 Nf6");
        assert_eq!(h.window_start(), 3);
        assert_eq!(h.keys().len(), 4);
        assert!(h.key_at(1).is_none());
    }
}
