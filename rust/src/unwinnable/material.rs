//! Material alone: sound, instant "cannot mate" answers.

use shakmaty::{Board, Chess, Color, Position};

use super::bits::{DARK, LIGHT};

/// Why material alone rules a mate out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// The would-be winner has only the king.
    BareKing,
    /// No mate with these pieces whatever the opponent does (K+N v K, K+B v K+B same colour, ...).
    Insufficient,
    /// A mate needs an opponent's promotion, and the opponent has no pawn.
    NoPromotion,
}

/// The would-be winner can mate only after the loser promotes a pawn to a
/// piece that blocks a flight square: a lone knight against no minor piece or
/// rook, or bishops all on one colour against no knight and no bishop of the
/// other colour. (It may say so where a mate without promotion exists only
/// when the loser has pawns; callers use it then as steering, never as proof.)
pub fn needs_loser_promotion(b: &Board, winner: Color) -> bool {
    let mine = b.by_color(winner).0;
    let theirs = b.by_color(!winner).0;
    let n_mine = mine.count_ones();
    let knights = b.knights().0 & mine;
    if n_mine == 2 && knights != 0 && theirs & (b.knights().0 | b.bishops().0 | b.rooks().0) == 0 {
        return true;
    }
    let bishops = b.bishops().0 & mine;
    if bishops != 0 && n_mine == bishops.count_ones() + 1 {
        let colour = if bishops & DARK != 0 { DARK } else { LIGHT };
        if bishops & !colour != 0 {
            return false;
        }
        return b.bishops().0 & !colour == 0 && b.knights().0 & theirs == 0;
    }
    false
}

/// Why `winner` cannot mate on material alone, or `None` when material does
/// not decide.
pub fn material(pos: &Chess, winner: Color) -> Option<Material> {
    let b = pos.board();
    let mine = b.by_color(winner);
    if mine == (b.kings() & mine) {
        return Some(Material::BareKing);
    }
    if pos.has_insufficient_material(winner) {
        return Some(Material::Insufficient);
    }
    if (b.pawns() & b.by_color(!winner)).is_empty() && needs_loser_promotion(b, winner) {
        return Some(Material::NoPromotion);
    }
    None
}

/// The fast form of [`material`] for the searches' inner loops.
#[inline]
pub fn hopeless(pos: &Chess, winner: Color) -> bool {
    let b = pos.board();
    if (b.by_color(winner) & (b.pawns() | b.rooks_and_queens())).any() {
        return false;
    }
    material(pos, winner).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::testing::pos;

    #[test]
    fn material_cases() {
        let p = pos("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1");
        assert_eq!(material(&p, Color::Black), Some(Material::BareKing));
        assert_eq!(material(&p, Color::White), None);
        let p = pos("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1");
        assert_eq!(material(&p, Color::Black), None);
        assert!(needs_loser_promotion(p.board(), Color::Black));
        let p = pos("8/8/8/4k3/8/2n5/8/K7 w - - 0 1");
        assert!(hopeless(&p, Color::Black));
        let p = pos("8/8/8/4k3/8/8/8/K6B w - - 0 1");
        assert_eq!(material(&p, Color::White), Some(Material::Insufficient));
    }
}
