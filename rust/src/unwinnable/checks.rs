//! Checks without playing the move, and checkmates without generating every
//! move: the helpmate search asks both of most positions it meets.

use shakmaty::attacks::{attacks, bishop_attacks, king_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Move, Piece, Position, Role, Square};

/// Does `m`, a legal move on `pos`, give check? (Castling is said to, which only
/// costs playing it.)
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let b = pos.board();
    let us = pos.turn();
    let Some(king) = b.king_of(!us) else {
        return false;
    };
    let (from, to, role, gone) = match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion.unwrap_or(role), Bitboard::EMPTY),
        Move::EnPassant { from, to } => (
            from,
            to,
            Role::Pawn,
            Bitboard::from_square(Square::from_coords(to.file(), from.rank())),
        ),
        _ => return true,
    };
    let occupied =
        (b.occupied() & !Bitboard::from_square(from) & !gone) | Bitboard::from_square(to);
    if attacks(to, Piece { color: us, role }, occupied).contains(king) {
        return true;
    }
    let ours = b.by_color(us) & !Bitboard::from_square(from);
    let diagonal = ours & (b.bishops() | b.queens());
    let straight = ours & (b.rooks() | b.queens());
    (bishop_attacks(king, occupied) & diagonal).any()
        || (rook_attacks(king, occupied) & straight).any()
}

/// Is the side to move checkmated? (As `Position::is_checkmate`, which generates
/// every evasion: a king with a safe square to go to answers sooner.)
pub fn checkmated(pos: &Chess) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() {
        return false;
    }
    let b = pos.board();
    let us = pos.turn();
    let Some(king) = b.king_of(us) else {
        return false;
    };
    // the king does not shield a square behind it from a slider
    let occupied = b.occupied() & !Bitboard::from_square(king);
    let flight = (king_attacks(king) & !b.by_color(us))
        .into_iter()
        .any(|s| b.attacks_to(s, !us, occupied).is_empty());
    if flight {
        return false;
    }
    // in double check only the king moves; else a capture or a block may answer
    checkers.more_than_one() || pos.legal_moves().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::testing::pos;

    #[test]
    fn agree_with_playing_the_move() {
        // random games from positions with en passant, promotions, castling and
        // discovered checks at hand; every legal move of every position met
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3pP3/8/8/4K2B b - e3 0 1",
            "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let (mut checked, mut checks, mut mates) = (0, 0, 0);
        for fen in starts {
            for _ in 0..40 {
                let mut p = pos(fen);
                for _ in 0..60 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let mut after = p.clone();
                        after.play_unchecked(m);
                        if !matches!(m, Move::Castle { .. }) {
                            assert_eq!(gives_check(&p, m), after.is_check(), "{m:?} in {p:?}");
                            assert_eq!(checkmated(&after), after.is_checkmate(), "{m:?} in {p:?}");
                            mates += usize::from(after.is_checkmate());
                            checked += 1;
                            checks += usize::from(after.is_check());
                        }
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    p.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(
            checked > 100_000 && checks > 1_000 && mates > 10,
            "{checked} {checks} {mates}"
        );
    }
}
