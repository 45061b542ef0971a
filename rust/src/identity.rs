//! Position identity under FIDE Article 9.2.3: the same player has the move, pieces of
//! the same kind and colour stand on the same squares, and the possible moves are the
//! same. History enters only through the castling rights (kept per rook, so Chess960
//! works) and an en passant capture, which counts only when it is legal (9.2.3.1).

use std::hash::{BuildHasherDefault, Hash, Hasher};

use shakmaty::{Board, Chess, Color, EnPassantMode, Position, Role};

/// The identity of a position. Equal keys are the same position under 9.2.3.
#[derive(Clone, Copy, Debug, Eq)]
pub struct Key {
    /// pawns, knights, bishops, rooks, queens, kings, White's units, Black's units
    pub bb: [u64; 8],
    pub white_to_move: bool,
    /// castling rights as the squares of the rooks that keep them
    pub castling: u64,
    /// the en passant square, only when an en passant capture is legal (64: none)
    pub ep: u8,
    hash: u64,
}

impl Key {
    /// The identity of `pos`.
    ///
    /// ```
    /// use _core::board::from_fen;
    /// use _core::identity::Key;
    ///
    /// // no black pawn can take on e3: the square does not make another position (9.2.3)
    /// let (a, _) = from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", false).unwrap();
    /// let (b, _) = from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", false).unwrap();
    /// assert_eq!(Key::of(&a), Key::of(&b));
    /// // the side to move does
    /// let (c, _) = from_fen("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", false).unwrap();
    /// assert_ne!(Key::of(&b), Key::of(&c));
    /// ```
    pub fn of(pos: &Chess) -> Key {
        let ep = pos.ep_square(EnPassantMode::Legal).map_or(64, u8::from);
        Key::of_board(
            pos.board(),
            pos.turn() == Color::White,
            pos.castles().castling_rights().0,
            ep,
        )
    }

    /// The identity of the units on `b` with the side to move, castling rights and en
    /// passant square given (64: none).
    #[must_use]
    pub fn of_board(b: &Board, white_to_move: bool, castling: u64, ep: u8) -> Key {
        let bb = [
            b.pawns().0,
            b.knights().0,
            b.bishops().0,
            b.rooks().0,
            b.queens().0,
            b.kings().0,
            b.white().0,
            b.black().0,
        ];
        Key::from_parts(bb, white_to_move, castling, ep)
    }

    /// A key from its parts (for positions python-chess holds that shakmaty refuses).
    #[must_use]
    pub fn from_parts(bb: [u64; 8], white_to_move: bool, castling: u64, ep: u8) -> Key {
        // A cheap mix of every field: equality is checked in full, the hash only sorts.
        let mut h: u64 = u64::from(white_to_move) ^ (u64::from(ep) << 1) ^ castling.rotate_left(7);
        for (i, w) in bb.iter().enumerate() {
            h = (h ^ w.rotate_left(i as u32 * 8)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        Key {
            bb,
            white_to_move,
            castling,
            ep,
            hash: h,
        }
    }

    /// The units of the side to move (`mover`) or its opponent.
    #[must_use]
    pub fn units(&self, color: Color) -> u64 {
        if color == Color::White {
            self.bb[6]
        } else {
            self.bb[7]
        }
    }

    /// The key as the tuple python's `PositionKey` has always been:
    /// pawns, knights, bishops, rooks, queens, kings, White, Black, turn, castling, ep.
    #[must_use]
    pub fn as_tuple(&self) -> [i128; 11] {
        let mut out = [0i128; 11];
        for (o, w) in out.iter_mut().zip(self.bb) {
            *o = i128::from(w);
        }
        out[8] = i128::from(self.white_to_move);
        out[9] = i128::from(self.castling);
        out[10] = if self.ep == 64 {
            -1
        } else {
            i128::from(self.ep)
        };
        out
    }

    /// The bitboard of one role's units.
    #[must_use]
    pub fn role(&self, role: Role) -> u64 {
        self.bb[role as usize - 1]
    }
}

impl PartialEq for Key {
    /// Every field, the hash first: it tells most keys apart in one comparison (the
    /// repetition count compares a position with those of its window).
    fn eq(&self, other: &Key) -> bool {
        self.hash == other.hash
            && self.bb == other.bb
            && self.white_to_move == other.white_to_move
            && self.castling == other.castling
            && self.ep == other.ep
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A hasher that passes a key's own mixed hash through.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub type KeyMap<V> = std::collections::HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::from_fen;

    #[test]
    fn en_passant_counts_only_when_legal() {
        // exd6 is illegal (the pawn is pinned): the ep square is not part of the identity
        let (pinned, _) = from_fen("1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2", false).unwrap();
        let (none, _) = from_fen("1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - - 0 2", false).unwrap();
        assert_eq!(Key::of(&pinned), Key::of(&none));
        let (live, _) = from_fen("1n4k1/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2", false).unwrap();
        let (gone, _) = from_fen("1n4k1/8/8/3pP3/8/8/8/4K1N1 w - - 0 2", false).unwrap();
        assert_ne!(Key::of(&live), Key::of(&gone));
    }

    #[test]
    fn castling_rights_are_part_of_it() {
        let (a, _) = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        let (b, _) = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", false).unwrap();
        assert_ne!(Key::of(&a), Key::of(&b));
        assert_eq!(Key::of(&a).as_tuple()[10], -1);
    }
}
