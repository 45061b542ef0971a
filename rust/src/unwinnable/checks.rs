//! Checks without playing the move, and checkmates without generating every
//! move: the helpmate search asks both of most positions it meets.

use shakmaty::attacks::{
    aligned, attacks, between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks,
    rook_attacks,
};
use shakmaty::{Bitboard, Chess, Color, Move, Piece, Position, Role, Square};

/// Which moves of the side to move give check, asked of many moves of one
/// position: what they share (the king in view, the pieces whose leaving
/// uncovers a line to it) is found once.
pub struct Checks<'a> {
    pos: &'a Chess,
    king: Square,
    /// the side to move's pieces that alone stand between the king in view and
    /// a bishop, rook or queen of the side to move
    uncovering: Bitboard,
    /// the squares from which a pawn, knight, bishop or rook of the side to move
    /// checks the king (a queen: a bishop's or a rook's)
    from_pawn: Bitboard,
    from_knight: Bitboard,
    from_bishop: Bitboard,
    from_rook: Bitboard,
}

impl<'a> Checks<'a> {
    /// `None` without a king to check.
    pub fn new(pos: &'a Chess) -> Option<Checks<'a>> {
        let b = pos.board();
        let us = pos.turn();
        let king = b.king_of(!us)?;
        let ours = b.by_color(us);
        let snipers = (bishop_attacks(king, Bitboard::EMPTY) & ours & (b.bishops() | b.queens()))
            | (rook_attacks(king, Bitboard::EMPTY) & ours & (b.rooks() | b.queens()));
        let mut uncovering = Bitboard::EMPTY;
        for s in snipers {
            let between = between(king, s) & b.occupied();
            if !between.more_than_one() {
                uncovering |= between & ours;
            }
        }
        let occupied = b.occupied();
        Some(Checks {
            pos,
            king,
            uncovering,
            from_pawn: pawn_attacks(!us, king),
            from_knight: knight_attacks(king),
            from_bishop: bishop_attacks(king, occupied),
            from_rook: rook_attacks(king, occupied),
        })
    }

    /// Does `m`, a legal move, give check? (Castling is said to, which only costs
    /// playing it.)
    pub fn gives(&self, m: Move) -> bool {
        let b = self.pos.board();
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => {
                if self.uncovering.contains(from) && !aligned(from, to, self.king) {
                    return true;
                }
                // Without a promotion, the square a piece leaves never lies between its
                // new square and the king on a line it attacks along: it would have
                // checked from there already, on its own move. The lines from the
                // king on the board as it stands are the lines after the move.
                let from_squares = match (role, promotion) {
                    (Role::Pawn, None) => Some(self.from_pawn),
                    (Role::Knight, _) => Some(self.from_knight),
                    (Role::Bishop, _) => Some(self.from_bishop),
                    (Role::Rook, _) => Some(self.from_rook),
                    (Role::Queen, _) => Some(self.from_bishop | self.from_rook),
                    (Role::King, _) => Some(Bitboard::EMPTY),
                    (Role::Pawn, Some(_)) => None,
                };
                if let Some(squares) = from_squares {
                    return squares.contains(to);
                }
                let piece = Piece {
                    color: self.pos.turn(),
                    role: promotion.unwrap_or(role),
                };
                let occupied = b.occupied() & !Bitboard::from_square(from);
                attacks(to, piece, occupied).contains(self.king)
            }
            Move::EnPassant { from, to } => {
                // two pawns leave a rank: every line to the king is looked at again
                let gone = Bitboard::from_square(from)
                    | Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
                let occupied = (b.occupied() & !gone) | Bitboard::from_square(to);
                let ours = b.by_color(self.pos.turn()) & !gone;
                let pawn = Piece {
                    color: self.pos.turn(),
                    role: Role::Pawn,
                };
                attacks(to, pawn, occupied).contains(self.king)
                    || (bishop_attacks(self.king, occupied) & ours & (b.bishops() | b.queens()))
                        .any()
                    || (rook_attacks(self.king, occupied) & ours & (b.rooks() | b.queens())).any()
            }
            _ => true,
        }
    }
}

impl Checks<'_> {
    /// Whether, after `m` (a legal move), the king in view has a square to go to that
    /// no piece of the side to move attacks, found without playing `m`: then `m` does
    /// not mate (as [`king_can_move`] on the position after it). `None` for castling
    /// and en passant, which move two units.
    pub fn leaves_flight(&self, m: Move) -> Option<bool> {
        let Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } = m
        else {
            return None;
        };
        let b = self.pos.board();
        let us = self.pos.turn();
        let (from_bb, to_bb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        // the board after the move, without the king in view (it shields nothing)
        let occupied = ((b.occupied() & !from_bb) | to_bb) & !Bitboard::from_square(self.king);
        let theirs = b.by_color(!us) & !to_bb;
        let moved = Piece {
            color: us,
            role: promotion.unwrap_or(role),
        };
        let from_moved = attacks(to, moved, occupied);
        Some((king_attacks(self.king) & !theirs).into_iter().any(|s| {
            !from_moved.contains(s) && (b.attacks_to(s, us, occupied) & !from_bb).is_empty()
        }))
    }
}

/// The king of `side` has a square to go to, empty or an enemy's, that no enemy
/// piece attacks (a cheap test: most positions have one). False without a king.
pub fn king_can_move(pos: &Chess, side: Color) -> bool {
    let b = pos.board();
    let Some(king) = b.king_of(side) else {
        return false;
    };
    // the king does not shield a square behind it from a slider
    let occupied = b.occupied() & !Bitboard::from_square(king);
    (king_attacks(king) & !b.by_color(side))
        .into_iter()
        .any(|s| b.attacks_to(s, !side, occupied).is_empty())
}

/// A legal step of the side to move's king to an empty square that no enemy piece
/// attacks: a move that keeps the material and ends nothing (the cheap way on down a line
/// of moves, without generating the others). `None` without one.
pub fn king_step(pos: &Chess) -> Option<Move> {
    let b = pos.board();
    let side = pos.turn();
    let king = b.king_of(side)?;
    let occupied = b.occupied() & !Bitboard::from_square(king);
    let to = (king_attacks(king) & !b.occupied())
        .into_iter()
        .find(|&s| b.attacks_to(s, !side, occupied).is_empty())?;
    Some(Move::Normal {
        role: Role::King,
        from: king,
        capture: None,
        to,
        promotion: None,
    })
}

/// Is the side to move checkmated? (As `Position::is_checkmate`, which generates
/// every evasion: a king with a safe square to go to answers sooner.)
pub fn checkmated(pos: &Chess) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() || king_can_move(pos, pos.turn()) {
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
            // a knight uncovering a rook; en passant uncovering a rook along the rank
            "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1",
            "8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1",
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
                    let test = Checks::new(&p).expect("a king");
                    for &m in &moves {
                        let mut after = p.clone();
                        after.play_unchecked(m);
                        if !matches!(m, Move::Castle { .. }) {
                            assert_eq!(test.gives(m), after.is_check(), "{m:?} in {p:?}");
                            assert_eq!(checkmated(&after), after.is_checkmate(), "{m:?} in {p:?}");
                            if let Some(flight) = test.leaves_flight(m) {
                                assert_eq!(
                                    flight,
                                    king_can_move(&after, after.turn()),
                                    "{m:?} in {p:?}"
                                );
                            }
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
