//! A live game: its history and what the rules say after each move, worked out once,
//! as the move is played.
//!
//! A chess server asks after every move whether the game is over and what the player
//! to move may claim. [`Live::push`] answers both while it plays the move, with the
//! rules of [`crate::rules`] that `remis game` also runs, and keeps the answers until
//! the next move: reading them costs nothing. A claim with a written move (9.2.1, 9.3.1)
//! is answered on demand ([`crate::rules::rule_on_claim`]): it depends on the move.

use shakmaty::{Chess, Move, Position};

use super::dead::DeadTest;
use super::{
    Claim, End, EndKind, checkmate_or_stalemate, fifty_claims, fivefold, seventyfive_moves,
    threefold_claims,
};
use crate::history::History;
use crate::identity::Key;

/// What the rules say in one position of the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rulings {
    /// the automatic end, if any, in the order of precedence (5.1.1, 5.2.1, 5.2.2,
    /// 9.6.1, 9.6.2)
    pub end: Option<End>,
    /// every correct claim of the player having the move (9.2, and 9.3 with the count
    /// the history was made with)
    pub claims: Vec<Claim>,
    /// false where the history does not hold the position (an illegal move stood):
    /// whether a move is possible there is then the caller's to find, so none of this
    /// was worked out
    pub known: bool,
}

/// A live game's history with the rulings of its current position.
#[derive(Clone)]
pub struct Live {
    h: History,
    /// the half-moves a fifty-move claim needs (100 under the current Laws)
    fifty: u32,
    now: Rulings,
    /// the rulings before each move, to take moves back without asking the dead test
    /// again (its per-game budget counts the positions it was asked about)
    before: Vec<Rulings>,
}

impl Live {
    /// A game from `pos`, whose rulings are worked out at once with `test` (a game set
    /// up in a position that has already ended is over before its first move).
    pub fn new(pos: Chess, fifty: u32, test: &mut dyn DeadTest) -> Live {
        Live::with_history(History::live(pos), fifty, test)
    }

    /// A game from a position shakmaty refuses (see [`History::live_inexact`]): its
    /// rulings are the caller's to find.
    pub fn inexact(k: Key, clock: u32, fifty: u32) -> Live {
        Live::with_history(
            History::live_inexact(k, clock, Chess::default()),
            fifty,
            &mut super::dead::Material,
        )
    }

    fn with_history(h: History, fifty: u32, test: &mut dyn DeadTest) -> Live {
        let n = h.current_occurrences().len();
        let mut live = Live {
            h,
            fifty,
            now: Rulings::default(),
            before: Vec::new(),
        };
        live.now = live.rule(n, Some(test));
        live
    }

    pub fn history(&self) -> &History {
        &self.h
    }

    /// The rulings of the current position.
    pub fn now(&self) -> &Rulings {
        &self.now
    }

    /// The half-moves a fifty-move claim needs.
    pub fn fifty(&self) -> u32 {
        self.fifty
    }

    /// Play a legal move and work out the rulings of the position it leaves (the dead
    /// test `test` asked once, where no mate or stalemate came first); returns how often
    /// that position has now stood.
    pub fn push(&mut self, m: Move, test: &mut dyn DeadTest) -> usize {
        let n = self.h.push(m);
        let now = self.rule(n, Some(test));
        self.before.push(std::mem::replace(&mut self.now, now));
        n
    }

    /// After a panic in [`Live::push`] (in the dead test): the move it played taken back,
    /// so that the history and its rulings agree again.
    pub fn abandon_push(&mut self) {
        if self.before.len() < self.h.ply() as usize {
            self.h.pop();
        }
    }

    /// Record the position an illegal move that stood left (see [`History::push_key`]).
    /// No dead-position test: 5.2.2 ends a game only after a move made under Article 3.
    pub fn push_key(&mut self, k: Key, clock: u32, pos: Option<Chess>) -> usize {
        let n = self.h.push_key(k, clock, pos);
        self.before.push(std::mem::take(&mut self.now));
        self.now = self.rule(n, None);
        n
    }

    /// Take back the last move. False when there is none.
    pub fn pop(&mut self) -> bool {
        if !self.h.pop() {
            return false;
        }
        self.now = self.before.pop().unwrap_or_default();
        true
    }

    /// The rulings after the current position has stood `n` times.
    fn rule(&self, n: usize, test: Option<&mut dyn DeadTest>) -> Rulings {
        let h = &self.h;
        if !h.exact() {
            return Rulings::default();
        }
        let mut end = checkmate_or_stalemate(h);
        if end.is_none()
            && let Some(test) = test
            && let Some(verdict) = test.test(h.position())
        {
            end = Some(End {
                ply: h.ply(),
                kind: match verdict {
                    super::DeadVerdict::Material(m) => EndKind::InsufficientMaterial(m),
                    other => EndKind::DeadPosition(Box::new(other)),
                },
                plies: vec![h.ply()],
                mover: h.position().turn(),
                count: 0,
            });
        }
        let clock = h.halfmoves();
        if end.is_none() && (n >= 5 || clock >= 150) {
            end = fivefold(h).or_else(|| seventyfive_moves(h));
        }
        let mut claims = Vec::new();
        if n >= 3 || !h.doubles().is_empty() {
            threefold_claims(h, &mut claims);
        }
        if clock + 1 >= self.fifty {
            fifty_claims(h, self.fifty, &mut claims);
        }
        Rulings {
            end,
            claims,
            known: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{from_fen, parse_san, start};
    use crate::rules::dead::Material;
    use crate::rules::{Article, EndRule, automatic_end, claimable};

    fn play(live: &mut Live, sans: &str, test: &mut dyn DeadTest) {
        for s in sans.split_whitespace() {
            let m = parse_san(live.history().position(), s).unwrap();
            live.push(m, test);
        }
    }

    #[test]
    fn the_rulings_after_each_move_are_those_of_the_rules() {
        // every ply of a game with repetitions, claims and a fivefold end: what the
        // push worked out is what the rules say when asked afresh
        let mut live = Live::new(start(), 100, &mut Material);
        let sans = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";
        for s in sans.split_whitespace() {
            let m = parse_san(live.history().position(), s).unwrap();
            live.push(m, &mut Material);
            let h = live.history();
            let now = live.now();
            assert!(now.known);
            assert_eq!(now.end, automatic_end(h, &mut Material, EndRule::All));
            assert_eq!(now.claims, claimable(h, 100));
        }
        assert_eq!(
            live.now().end.as_ref().map(|e| e.kind.clone()),
            Some(EndKind::FivefoldRepetition)
        );
    }

    #[test]
    fn a_set_up_position_that_has_ended_is_over_before_any_move() {
        let (bare, _) = from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1", false).unwrap();
        let live = Live::new(bare, 100, &mut Material);
        assert_eq!(
            live.now().end.as_ref().map(|e| e.kind.clone()),
            Some(EndKind::InsufficientMaterial("K v K".into()))
        );
        let (long, _) = from_fen("8/8/4k3/8/8/3K4/8/6R1 w - - 150 100", false).unwrap();
        let live = Live::new(long, 100, &mut Material);
        assert_eq!(
            live.now()
                .end
                .as_ref()
                .map(|e| (e.kind.clone(), e.plies.clone())),
            Some((EndKind::SeventyFiveMoves, vec![0, 0]))
        );
    }

    #[test]
    fn the_fifty_move_claims_come_with_the_count() {
        let (pos, _) = from_fen("8/8/4k3/8/8/3K4/8/6R1 w - - 98 80", false).unwrap();
        let mut live = Live::new(pos, 100, &mut Material);
        assert!(live.now().claims.is_empty());
        play(&mut live, "Rg2", &mut Material);
        assert_eq!(live.now().claims[0].article, Article::IntendedFifty);
        play(&mut live, "Ke5", &mut Material);
        assert_eq!(live.now().claims[0].article, Article::Fifty);
    }

    /// The material test, counting the positions it is asked about.
    struct Counting(u32);

    impl DeadTest for Counting {
        fn test(&mut self, pos: &Chess) -> Option<crate::rules::DeadVerdict> {
            self.0 += 1;
            Material.test(pos)
        }
    }

    #[test]
    fn a_move_taken_back_restores_the_rulings_without_a_second_test() {
        let (pos, _) = from_fen("8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1", false).unwrap();
        let mut test = Counting(0);
        let mut live = Live::new(pos, 100, &mut test);
        let before = live.now().clone();
        play(&mut live, "Nxd1", &mut test);
        assert!(matches!(
            live.now().end.as_ref().map(|e| &e.kind),
            Some(EndKind::InsufficientMaterial(_))
        ));
        assert_eq!(test.0, 2); // the start position and the one Nxd1 left
        assert!(live.pop());
        assert_eq!((live.now(), test.0), (&before, 2));
        assert!(!live.pop(), "nothing before the start position");
        // a mate or stalemate comes first: the dead test is not asked
        let (mate, _) = from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1", false).unwrap();
        let mut live = Live::new(mate, 100, &mut test);
        play(&mut live, "Rh8#", &mut test);
        assert_eq!(test.0, 3);
    }

    #[test]
    fn a_position_the_history_does_not_hold_is_left_to_the_caller() {
        let mut live = Live::new(start(), 100, &mut Material);
        let k = Key::of(&start());
        live.push_key(k, 0, None);
        assert!(!live.now().known);
        assert!(live.now().end.is_none());
    }
}
