//! Static unwinnability proofs: "`color` can never checkmate", shown without
//! search from the reach analysis of [`super::reach`].
//!
//! Two arguments, both proofs:
//!
//! * **No check is ever possible**: no piece of the would-be winner can ever
//!   attack a square the loser's king can ever stand on.
//! * **A flight square always remains**: for every square `k` where the loser's
//!   king could ever be in check, look at its neighbours inside the king's
//!   region that no winner piece other than the king can ever attack. A mate on
//!   `k` needs each of them filled by a loser piece or guarded by the winner's
//!   king, which can never stand next to `k`. If, for each place of the
//!   winner's king, distinct loser pieces able to reach those squares are too
//!   few (a bipartite matching), no mate on `k` exists. This covers bishops of
//!   one colour and pawn walls that leave a free square behind the king.
//!
//! The king's present square is dropped from its region when an immovable
//! winner piece attacks it (in check and not mated now, it leaves for good).

use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::bits::{DARK, NOT_A, NOT_H, bit, ci, king, squares};
use super::key::{KeySet, key};
use super::material::material;
use super::reach::{Analysis, analyse, lower_bounds};
use super::{AfterCounts, Reason};

/// Which argument proved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticKind {
    /// No winner piece can ever attack a square the loser's king can reach.
    NoCheck,
    /// Only bishops on squares of one shade (`dark`) can ever check, and the
    /// king always keeps a flight square of the other shade.
    OneShade { dark: bool },
    /// Wherever a check could come, a flight square always remains.
    Flight,
}

/// A static proof, with what a reader needs to see it: the pawns that never
/// move, and a boxed king's squares (`[black, white]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticProof {
    pub kind: StaticKind,
    pub frozen_pawns: u64,
    pub boxed: [u64; 2],
}

/// Pawns whose square ahead is occupied: every frozen set holds one.
fn blocked_pawns(pos: &Chess) -> u64 {
    let b = pos.board();
    let (pawns, occupied) = (b.pawns().0, b.occupied().0);
    (pawns & b.white().0 & (occupied >> 8)) | (pawns & b.black().0 & (occupied << 8))
}

/// Some square of `region` other than the kings' own is attacked and has all
/// its neighbours attacked: no flight argument can succeed there.
fn stuck_in_a_net(region: u64, attacks: u64, kings: u64) -> bool {
    let region = region & !kings & attacks;
    if region == 0 {
        return false;
    }
    let free = !attacks;
    let beside = ((free << 1) & NOT_A) | ((free >> 1) & NOT_H);
    let near_free = beside | ((free | beside) << 8) | ((free | beside) >> 8);
    region & !near_free != 0
}

/// A proof that `color` can never checkmate from `pos`, or `None`.
pub fn static_unwinnable(pos: &Chess, color: Color) -> Option<StaticProof> {
    let b = pos.board();
    let kings = b.kings().0;
    if blocked_pawns(pos) == 0 && b.by_color(color).0 & !kings & !b.bishops().0 != 0 {
        // nothing can be frozen without a blocked pawn: the loser's king may go
        // anywhere and a queen, rook, knight or pawn can reach it
        return None;
    }
    if pos.ep_square(EnPassantMode::PseudoLegal).is_some() {
        return None;
    }
    let loser = !color;
    let net = |region: u64, attacks: u64| stuck_in_a_net(region, attacks, kings);
    let (region, attacks) = lower_bounds(b, color, net);
    if net(region, attacks) {
        return None;
    }
    let mut a = analyse(
        pos,
        |a, _| stuck_in_a_net(a.king_region[ci(loser)], a.attacks[ci(color)], kings),
        color,
    )?;
    let king_sq = bit(u32::from(b.king_of(loser)?));
    if a.fixed_attacks[ci(color)] & king_sq != 0 {
        // in check from a piece that never moves, not mated now: the king
        // leaves this square for good
        if pos.is_checkmate() {
            return None;
        }
        a.king_region[ci(loser)] &= !king_sq;
    }
    let region = a.king_region[ci(loser)];
    let proof = |kind| StaticProof {
        kind,
        frozen_pawns: a.frozen & b.pawns().0,
        boxed: a.boxed,
    };
    if a.attacks[ci(color)] & region == 0 {
        return Some(proof(StaticKind::NoCheck));
    }
    if !always_a_flight(&a, color) {
        return None;
    }
    let checkers = relevant(&a, color);
    if checkers != 0
        && checkers & !b.bishops().0 == 0
        && (checkers & DARK == 0 || checkers & !DARK == 0)
    {
        return Some(proof(StaticKind::OneShade {
            dark: checkers & DARK != 0,
        }));
    }
    Some(proof(StaticKind::Flight))
}

/// Squares of the winner's non-king pieces that may ever attack or enter the
/// loser king's region.
fn relevant(a: &Analysis<'_>, color: Color) -> u64 {
    let region = a.king_region[ci(!color)];
    let b = a.board;
    let mut out = 0;
    for s in squares(b.by_color(color).0 & !b.kings().0) {
        let reach = a.mobility[s as usize].map_or(bit(s), |m| m.reach);
        if (a.attacks_of(s) | reach) & region != 0 {
            out |= bit(s);
        }
    }
    out
}

/// For every square where the loser's king could ever be in check, some
/// neighbouring square stays a flight (see the module docs).
fn always_a_flight(a: &Analysis<'_>, color: Color) -> bool {
    mating_squares(a, color, true) == 0
}

/// The squares where the loser's king could ever be checkmated: those where
/// it could be in check and the flight argument fails (with `first`, only
/// the first such square).
fn mating_squares(a: &Analysis<'_>, color: Color, first: bool) -> u64 {
    let b = a.board;
    let region = a.king_region[ci(!color)];
    let attacks = a.attacks[ci(color)];
    let winner_king = a.king_region[ci(color)];
    let loser_pieces = b.by_color(!color).0 & !b.kings().0;
    let blockers: Vec<u64> = squares(loser_pieces)
        .filter_map(|s| a.mobility[s as usize].map(|m| m.reach))
        .collect();
    let mut out = 0;
    for k in squares(attacks & region) {
        let flights = king(k) & region & !attacks;
        let near_k = king(k) | bit(k);
        let mut guards =
            std::iter::once(0).chain(squares(winner_king & !near_k).map(|w| king(w) & flights));
        if flights == 0 || guards.any(|guarded| can_fill(flights & !guarded, &blockers)) {
            out |= bit(k);
            if first {
                break;
            }
        }
    }
    out
}

/// The squares where the loser's king could ever be checkmated by `color`, by
/// the reach analysis; `None` where it does not apply.
pub fn mating_targets(pos: &Chess, color: Color) -> Option<u64> {
    if pos.ep_square(EnPassantMode::PseudoLegal).is_some() {
        return None;
    }
    let a = analyse(pos, |_, _| false, color)?;
    Some(mating_squares(&a, color, false))
}

/// Can distinct blockers (each the squares it can reach) stand on all of
/// `targets` at once? A bipartite matching.
pub fn can_fill(targets: u64, blockers: &[u64]) -> bool {
    if targets.count_ones() as usize > blockers.len() {
        return false;
    }
    fn assign(s: u32, blockers: &[u64], owner: &mut [Option<u32>], seen: &mut u64) -> bool {
        for (i, &reach) in blockers.iter().enumerate() {
            if reach & bit(s) != 0 && *seen & (1 << i) == 0 {
                *seen |= 1 << i;
                let free = match owner[i] {
                    None => true,
                    Some(t) => assign(t, blockers, owner, seen),
                };
                if free {
                    owner[i] = Some(s);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; blockers.len()];
    squares(targets).all(|t| {
        let mut seen = 0u64;
        assign(t, blockers, &mut owner, &mut seen)
    })
}

/// How the forced replies after one legal move end, for [`after_every_move`].
enum AfterMove {
    Proof(Kind, Option<StaticProof>),
    /// No proof (or the would-be winner mates).
    Open,
}

#[derive(Clone, Copy)]
enum Kind {
    Stalemate,
    Mated,
    Material,
    Cycle,
    Blocked,
}

/// Follow the forced replies from `pos` (a legal move has just been played)
/// until a choice of moves, and say why `color` cannot mate from there.
fn after_move(mut pos: Chess, color: Color, limit: usize, played: &mut Vec<Move>) -> AfterMove {
    let mut seen = KeySet::default();
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() && pos.is_check() && pos.turn() != color {
            return AfterMove::Open;
        }
        if material(&pos, color).is_some() {
            return AfterMove::Proof(Kind::Material, None);
        }
        match moves.len() {
            0 if pos.is_check() => return AfterMove::Proof(Kind::Mated, None),
            0 => return AfterMove::Proof(Kind::Stalemate, None),
            1 if played.len() < limit => {}
            _ => {
                return match static_unwinnable(&pos, color) {
                    Some(p) => AfterMove::Proof(Kind::Blocked, Some(p)),
                    None => AfterMove::Open,
                };
            }
        }
        if !seen.insert(key(&pos)) {
            return AfterMove::Proof(Kind::Cycle, None);
        }
        pos.play_unchecked(moves[0]);
        played.push(moves[0]);
    }
}

/// The static proof after every legal move, each followed by its forced
/// replies: when `color` cannot mate after every one, it cannot mate now. A
/// move may also end the game, leave too little material or start a cycle of
/// forced moves (the tempo proofs of positions where a side has almost no move).
pub fn after_every_move(pos: &Chess, color: Color, limit: usize) -> Option<Reason> {
    let mut counts = AfterCounts::default();
    let mut example = None;
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let mut played = vec![m];
        match after_move(child, color, limit, &mut played) {
            AfterMove::Open => return None,
            AfterMove::Proof(kind, proof) => {
                match kind {
                    Kind::Stalemate => counts.stalemate += 1,
                    Kind::Mated => counts.mated += 1,
                    Kind::Material => counts.material += 1,
                    Kind::Cycle => counts.cycle += 1,
                    Kind::Blocked => counts.blocked += 1,
                }
                if let (Some(p), None) = (proof, &example) {
                    example = Some((played, p));
                }
            }
        }
    }
    Some(Reason::AfterEveryMove { counts, example })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::testing::pos;

    #[test]
    fn a_locked_chain() {
        let p = pos("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1");
        let proof = static_unwinnable(&p, Color::White).expect("a proof");
        assert_eq!(proof.kind, StaticKind::NoCheck);
        assert_eq!(proof.frozen_pawns, p.board().pawns().0);
        let p = pos("8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1");
        assert_eq!(static_unwinnable(&p, Color::White), None);
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(static_unwinnable(&p, Color::White), None);
    }

    #[test]
    fn bishops_of_one_shade() {
        let p = pos("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1");
        assert!(static_unwinnable(&p, Color::White).is_some());
        assert!(static_unwinnable(&p, Color::Black).is_some());
    }

    #[test]
    fn after_every_move_with_forced_replies() {
        let p = pos("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/6B1 w - - 0 1");
        match after_every_move(&p, Color::Black, 40) {
            Some(Reason::AfterEveryMove { counts, example }) => {
                assert_eq!((counts.stalemate, counts.blocked), (11, 2));
                assert!(example.is_some());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn matching() {
        assert!(can_fill(bit(0) | bit(1), &[bit(0) | bit(1), bit(0)]));
        assert!(!can_fill(bit(0) | bit(1), &[bit(0), bit(0)]));
    }
}
