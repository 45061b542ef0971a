//! The rules over a game's history, as facts (plies, articles, moves); Python turns them
//! into rulings and sentences.
//!
//! * automatic ends, in order of precedence: checkmate (5.1.1), stalemate (5.2.1), dead
//!   position (5.2.2, through a [`dead::DeadTest`]), fivefold repetition (9.6.1) and the
//!   75-move rule (9.6.2, where a mate on the last move prevails);
//! * claims by the player having the move: threefold repetition (9.2.2 on the board,
//!   9.2.1 with each intended move that works) and fifty moves (9.3.2, 9.3.1).

pub mod dead;
pub mod live;

use shakmaty::{Color, Move, Position};

use crate::board::{describe_material, san};
use crate::history::History;
use crate::identity::Key;
pub use dead::{DeadTest, DeadVerdict};

/// How a game ends automatically.
#[derive(Clone, Debug, PartialEq)]
pub enum EndKind {
    Checkmate,
    Stalemate,
    /// 5.2.2 by material alone, with the material (`K v K+N`)
    InsufficientMaterial(String),
    /// 5.2.2 proved by the engine for both sides
    DeadPosition(Box<DeadVerdict>),
    FivefoldRepetition,
    SeventyFiveMoves,
}

/// An automatic end: after `ply` plies, resting on `plies`; `mover` is the side to move
/// in the final position (the mated or stalemated side).
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    pub ply: u32,
    pub kind: EndKind,
    pub plies: Vec<u32>,
    pub mover: Color,
    /// the no-progress count (9.6.2)
    pub count: u32,
}

impl End {
    pub fn article(&self) -> &'static str {
        match self.kind {
            EndKind::Checkmate => "5.1.1",
            EndKind::Stalemate => "5.2.1",
            EndKind::InsufficientMaterial(_) | EndKind::DeadPosition(_) => "5.2.2",
            EndKind::FivefoldRepetition => "9.6.1",
            EndKind::SeventyFiveMoves => "9.6.2",
        }
    }
}

/// Checkmate (5.1.1) or stalemate (5.2.1) on the board.
///
/// Only where the history holds the position: the live arbiter answers a position
/// shakmaty refuses (an illegal move that stood) itself.
pub fn checkmate_or_stalemate(h: &History) -> Option<End> {
    let pos = h.position();
    if !h.exact() || !pos.legal_moves().is_empty() {
        return None;
    }
    let kind = if pos.is_check() {
        EndKind::Checkmate
    } else {
        EndKind::Stalemate
    };
    Some(End {
        ply: h.ply(),
        kind,
        plies: vec![h.ply()],
        mover: pos.turn(),
        count: 0,
    })
}

/// A dead position (5.2.2) proved by `test`.
pub fn dead_position(h: &History, test: &mut dyn DeadTest) -> Option<End> {
    let verdict = test.test(h.position())?;
    let kind = match verdict {
        DeadVerdict::Material(m) => EndKind::InsufficientMaterial(m),
        other => EndKind::DeadPosition(Box::new(other)),
    };
    Some(End {
        ply: h.ply(),
        kind,
        plies: vec![h.ply()],
        mover: h.turn(),
        count: 0,
    })
}

/// Fivefold repetition (9.6.1).
pub fn fivefold(h: &History) -> Option<End> {
    let occ = h.current_occurrences();
    (occ.len() >= 5).then(|| End {
        ply: h.ply(),
        kind: EndKind::FivefoldRepetition,
        plies: occ.to_vec(),
        mover: h.turn(),
        count: 0,
    })
}

/// The 75-move rule (9.6.2); ask it after checkmate, which prevails.
pub fn seventyfive_moves(h: &History) -> Option<End> {
    let clock = h.halfmoves();
    (clock >= 150).then(|| End {
        ply: h.ply(),
        kind: EndKind::SeventyFiveMoves,
        plies: vec![h.ply().saturating_sub(clock), h.ply()],
        mover: h.turn(),
        count: clock,
    })
}

/// Which automatic ends apply: all of them (the Laws since 1 July 2014), or only those
/// the position decides (5.1.1, 5.2.1, 5.2.2: before, 9.6 was a claim, never an end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndRule {
    All,
    PositionOnly,
}

/// The automatic end in the current position, if any, in the order of precedence.
pub fn automatic_end(h: &History, test: &mut dyn DeadTest, rule: EndRule) -> Option<End> {
    checkmate_or_stalemate(h)
        .or_else(|| dead_position(h, test))
        .or_else(|| match rule {
            EndRule::All => fivefold(h).or_else(|| seventyfive_moves(h)),
            EndRule::PositionOnly => None,
        })
}

/// The articles of the draw claims (9.2 and 9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Article {
    /// 9.2.1: the intended move will make a position stand for the third time
    IntendedRepetition,
    /// 9.2.2: the position on the board has stood three times
    Repetition,
    /// 9.3.1: the intended move completes fifty moves without pawn move or capture
    IntendedFifty,
    /// 9.3.2: the last fifty moves of each player had no pawn move or capture
    Fifty,
}

impl Article {
    pub fn text(self) -> &'static str {
        match self {
            Article::IntendedRepetition => "9.2.1",
            Article::Repetition => "9.2.2",
            Article::IntendedFifty => "9.3.1",
            Article::Fifty => "9.3.2",
        }
    }

    pub fn is_repetition(self) -> bool {
        matches!(self, Article::IntendedRepetition | Article::Repetition)
    }
}

/// A correct draw claim the player having the move could make after `ply` plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub ply: u32,
    pub player: Color,
    pub article: Article,
    /// the intended move (SAN), for 9.2.1 and 9.3.1
    pub mv: Option<String>,
    pub plies: Vec<u32>,
    /// 9.3.1: every intended move that would do
    pub moves: Vec<String>,
    /// 9.3.2: the no-progress count
    pub count: u32,
    /// 9.3: the half-moves the claim needed, and the units on the board (the FEN's
    /// placement), which decided that number under the Laws of some dates
    pub needed: u32,
    pub board: String,
}

/// Every correct threefold claim (9.2.2, and 9.2.1 with each intended move that works).
pub fn threefold_claims(h: &History, out: &mut Vec<Claim>) {
    let ply = h.ply();
    let player = h.turn();
    let occ = h.current_occurrences();
    if occ.len() >= 3 {
        out.push(Claim {
            ply,
            player,
            article: Article::Repetition,
            mv: None,
            plies: occ.to_vec(),
            moves: Vec::new(),
            count: 0,
            needed: 0,
            board: String::new(),
        });
    }
    let mut found: Vec<(String, Vec<u32>)> = h
        .repeating_moves()
        .into_iter()
        .map(|(m, mut plies)| {
            plies.push(ply + 1);
            (san(h.position(), m), plies)
        })
        .collect();
    found.sort();
    for (s, plies) in found {
        out.push(Claim {
            ply,
            player,
            article: Article::IntendedRepetition,
            mv: Some(s),
            plies,
            moves: Vec::new(),
            count: 0,
            needed: 0,
            board: String::new(),
        });
    }
}

/// The no-progress count for the fifty-move claims: the count the Laws give (`limit`,
/// 100 half-moves today) and the claims made with it.
pub fn fifty_claims(h: &History, limit: u32, out: &mut Vec<Claim>) {
    let clock = h.halfmoves();
    let ply = h.ply();
    let player = h.turn();
    if clock >= limit {
        out.push(Claim {
            ply,
            player,
            article: Article::Fifty,
            mv: None,
            plies: vec![ply.saturating_sub(clock), ply],
            moves: Vec::new(),
            count: clock,
            needed: limit,
            board: h.position().board().to_string(),
        });
    } else if clock + 1 == limit && h.exact() {
        let pos = h.position();
        let mut sans: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_zeroing())
            .map(|m| san(pos, m))
            .collect();
        sans.sort();
        if let Some(first) = sans.first().cloned() {
            out.push(Claim {
                ply,
                player,
                article: Article::IntendedFifty,
                mv: Some(first),
                plies: vec![ply.saturating_sub(clock), ply + 1],
                moves: sans,
                count: clock,
                needed: limit,
                board: pos.board().to_string(),
            });
        }
    }
}

/// Every correct claim of the player having the move (9.2 and 9.3).
pub fn claimable(h: &History, fifty_limit: u32) -> Vec<Claim> {
    let mut out = Vec::new();
    threefold_claims(h, &mut out);
    fifty_claims(h, fifty_limit, &mut out);
    out
}

/// The two kinds of draw claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimKind {
    Threefold,
    Fifty,
}

/// The intended move of a claim (9.2.1, 9.3.1), as the history needs it: the key of
/// the position it leads to and whether it is a pawn move or a capture.
#[derive(Clone, Copy, Debug)]
pub struct Intended {
    pub key: Key,
    pub zeroing: bool,
}

impl Intended {
    /// The intended move `m`, legal in the history's position.
    pub fn of(h: &History, m: Move) -> Intended {
        let mut after = h.position().clone();
        after.play_unchecked(m);
        Intended {
            key: Key::of(&after),
            // (castling repeats nothing either: the key's castling rights differ)
            zeroing: m.is_zeroing(),
        }
    }
}

/// Why a claim is correct or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimReason {
    Correct,
    /// the claimant does not have the move (9.2, 9.3 are claims of the player to move)
    WrongPlayer,
    Incorrect,
}

/// The verdict on one claim: the kind and article it was judged under, the plies it
/// rests on and the no-progress count it would need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimVerdict {
    pub reason: ClaimReason,
    pub kind: ClaimKind,
    pub article: Article,
    pub plies: Vec<u32>,
    pub count: u32,
}

/// The article a claim of `kind` rests on, with or without an intended move.
pub fn claim_article(kind: ClaimKind, with_move: bool) -> Article {
    match (kind, with_move) {
        (ClaimKind::Threefold, true) => Article::IntendedRepetition,
        (ClaimKind::Threefold, false) => Article::Repetition,
        (ClaimKind::Fifty, true) => Article::IntendedFifty,
        (ClaimKind::Fifty, false) => Article::Fifty,
    }
}

/// A claim by the player who does not have the move: 9.2 and 9.3 are claims of the
/// player having the move.
pub fn wrong_player(kind: Option<ClaimKind>, with_move: bool) -> ClaimVerdict {
    let k = kind.unwrap_or(ClaimKind::Threefold);
    ClaimVerdict {
        reason: ClaimReason::WrongPlayer,
        kind: k,
        article: claim_article(k, with_move),
        plies: Vec::new(),
        count: 0,
    }
}

/// Rule on a draw claim by `claimant` of `kind` (None: either), with an optional
/// intended move, where a fifty-move claim needs `limit` half-moves (100 today). An
/// incorrect claim is judged under the kind asked for or, when none was, the more
/// plausible one (fifty moves when the count is near and the position is new).
pub fn rule_on_claim(
    h: &History,
    claimant: Color,
    kind: Option<ClaimKind>,
    intended: Option<Intended>,
    limit: u32,
) -> ClaimVerdict {
    let ply = h.ply();
    let clock = h.halfmoves();
    let with_move = intended.is_some();
    let article = |k: ClaimKind| claim_article(k, with_move);
    let verdict = |reason, kind, article, plies, count| ClaimVerdict {
        reason,
        kind,
        article,
        plies,
        count,
    };
    if claimant != h.turn() {
        return wrong_player(kind, with_move);
    }
    let after = intended.map(|i| {
        let mut plies = h.occurrences_after_key(&i.key, i.zeroing);
        plies.push(ply + 1);
        plies
    });
    let kinds: &[ClaimKind] = match kind {
        Some(ClaimKind::Threefold) => &[ClaimKind::Threefold],
        Some(ClaimKind::Fifty) => &[ClaimKind::Fifty],
        None => &[ClaimKind::Threefold, ClaimKind::Fifty],
    };
    let since = ply.saturating_sub(clock);
    for k in kinds {
        match k {
            ClaimKind::Threefold => {
                if let Some(plies) = after.as_ref().filter(|p| p.len() >= 3) {
                    let (a, n) = (Article::IntendedRepetition, plies.len() as u32);
                    return verdict(ClaimReason::Correct, *k, a, plies.clone(), n);
                }
                let occ = h.current_occurrences();
                if occ.len() >= 3 {
                    let (a, n) = (Article::Repetition, occ.len() as u32);
                    return verdict(ClaimReason::Correct, *k, a, occ.to_vec(), n);
                }
            }
            ClaimKind::Fifty => {
                if intended.is_some_and(|i| !i.zeroing) && clock + 1 >= limit {
                    let plies = vec![since, ply + 1];
                    let a = Article::IntendedFifty;
                    return verdict(ClaimReason::Correct, *k, a, plies, clock + 1);
                }
                if clock >= limit {
                    let (a, plies) = (Article::Fifty, vec![since, ply]);
                    return verdict(ClaimReason::Correct, *k, a, plies, clock);
                }
            }
        }
    }
    let mut first = kinds[0];
    if kind.is_none() && clock + 10 >= limit && h.current_occurrences().len() < 2 {
        first = ClaimKind::Fifty;
    }
    match first {
        ClaimKind::Threefold => {
            let plies = after.unwrap_or_else(|| h.current_occurrences().to_vec());
            let n = plies.len() as u32;
            verdict(ClaimReason::Incorrect, first, article(first), plies, n)
        }
        ClaimKind::Fifty => {
            let count = match intended {
                Some(i) if i.zeroing => 0,
                Some(_) => clock + 1,
                None => clock,
            };
            let plies = vec![since, ply];
            verdict(ClaimReason::Incorrect, first, article(first), plies, count)
        }
    }
}

/// The material description, for insufficient material.
pub fn material(h: &History) -> String {
    describe_material(h.position())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{from_fen, parse_san, start};

    fn history(fen: Option<&str>, sans: &str) -> History {
        let pos = fen.map_or_else(start, |f| from_fen(f, false).unwrap().0);
        let mut h = History::live(pos);
        for s in sans.split_whitespace() {
            let m = parse_san(h.position(), s).unwrap();
            h.push(m);
        }
        h
    }

    #[test]
    fn mate_on_the_150th_ply_prevails() {
        let h = history(Some("k7/8/1K6/8/8/8/8/7R w - - 149 100"), "Rh8#");
        let end = automatic_end(&h, &mut dead::Material, EndRule::All).unwrap();
        assert_eq!(end.kind, EndKind::Checkmate);
        let h = history(Some("8/8/4k3/8/8/3K4/8/6R1 w - - 149 100"), "Rg2");
        let end = automatic_end(&h, &mut dead::Material, EndRule::All).unwrap();
        assert_eq!(
            (end.kind, end.plies),
            (EndKind::SeventyFiveMoves, vec![0, 1])
        );
        assert!(automatic_end(&h, &mut dead::Material, EndRule::PositionOnly).is_none());
    }

    #[test]
    fn claims_on_the_board_and_with_a_move() {
        let h = history(
            None,
            "e4 e5 Nf3 Nc6 Bc4 Be7 Ke2 Nf6 Ke1 Ng8 Ke2 Nf6 Ke1 Ng8",
        );
        let claims = claimable(&h, 100);
        assert_eq!(claims.len(), 1);
        assert_eq!(
            (claims[0].article, claims[0].mv.as_deref()),
            (Article::IntendedRepetition, Some("Ke2"))
        );
        let h = history(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        let arts: Vec<_> = claimable(&h, 100)
            .iter()
            .map(|c| c.article.text())
            .collect();
        assert_eq!(arts, vec!["9.2.2", "9.2.1"]);
    }

    #[test]
    fn fifty_moves() {
        let h = history(Some("8/8/4k3/8/8/3K4/8/6R1 w - - 99 80"), "");
        let c = claimable(&h, 100);
        assert_eq!(c[0].article, Article::IntendedFifty);
        assert!(c[0].moves.contains(c[0].mv.as_ref().unwrap()));
        let h = history(Some("8/8/4k3/8/8/3K4/8/6R1 b - - 100 80"), "");
        assert_eq!(claimable(&h, 100)[0].article, Article::Fifty);
    }

    #[test]
    fn claims_ruled_on() {
        let h = history(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        let back = parse_san(h.position(), "Ng8").unwrap();
        let v = rule_on_claim(&h, Color::Black, None, Some(Intended::of(&h, back)), 100);
        assert_eq!(
            (v.reason, v.article, v.plies),
            (
                ClaimReason::Correct,
                Article::IntendedRepetition,
                vec![0, 4, 8]
            )
        );
        let v = rule_on_claim(&h, Color::White, None, None, 100);
        assert_eq!(v.reason, ClaimReason::WrongPlayer);
        let v = rule_on_claim(&h, Color::Black, None, None, 100);
        assert_eq!(
            (v.reason, v.kind, v.plies),
            (ClaimReason::Incorrect, ClaimKind::Threefold, vec![3, 7])
        );
        let h = history(Some("8/8/4k3/8/8/3K4/6P1/6R1 w - - 95 80"), "");
        let v = rule_on_claim(&h, Color::White, None, None, 100);
        assert_eq!(
            (v.reason, v.kind, v.count),
            (ClaimReason::Incorrect, ClaimKind::Fifty, 95)
        );
    }

    #[test]
    fn insufficient_material_and_dead_positions() {
        let h = history(Some("8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1"), "Nxd1");
        let end = automatic_end(&h, &mut dead::Material, EndRule::All).unwrap();
        assert_eq!(end.kind, EndKind::InsufficientMaterial("K v K+N".into()));
        assert_eq!(material(&h), "K v K+N");
    }
}
