//! Bitboard arithmetic on plain `u64`s (bit `8 * rank + file`, a1 = 0): the
//! flood fills of the reach analysis and the steering of the searches.

use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, Square, attacks};

pub const ALL: u64 = u64::MAX;
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const NOT_A: u64 = !FILE_A;
pub const NOT_H: u64 = !FILE_H;
pub const NOT_AB: u64 = !(FILE_A | FILE_A << 1);
pub const NOT_GH: u64 = !(FILE_H | FILE_H >> 1);
pub const RANK_1: u64 = 0xFF;
pub const RANK_2: u64 = RANK_1 << 8;
pub const RANK_3: u64 = RANK_1 << 16;
pub const RANK_6: u64 = RANK_1 << 40;
pub const RANK_7: u64 = RANK_1 << 48;
pub const RANK_8: u64 = RANK_1 << 56;
pub const BACK_RANKS: u64 = RANK_1 | RANK_8;
pub const DARK: u64 = 0xAA55_AA55_AA55_AA55;
pub const LIGHT: u64 = !DARK;

/// The index of a colour in `[black, white]` arrays.
#[inline]
pub const fn ci(color: Color) -> usize {
    color as usize
}

#[inline]
pub const fn bit(sq: u32) -> u64 {
    1 << sq
}

#[inline]
pub fn sq(index: u32) -> Square {
    Square::new(index)
}

/// The squares of `bb`, lowest first.
#[inline]
pub fn squares(mut bb: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let s = bb.trailing_zeros();
            bb &= bb - 1;
            Some(s)
        }
    })
}

pub fn knight(s: u32) -> u64 {
    attacks::knight_attacks(sq(s)).0
}

pub fn king(s: u32) -> u64 {
    attacks::king_attacks(sq(s)).0
}

/// Squares a slider on `s` attacks when only `occupied` blocks: along
/// diagonals where `diagonal`, files and ranks where `straight`.
pub fn slider(s: u32, diagonal: bool, straight: bool, occupied: u64) -> u64 {
    let mut t = 0;
    if diagonal {
        t |= attacks::bishop_attacks(sq(s), Bitboard(occupied)).0;
    }
    if straight {
        t |= attacks::rook_attacks(sq(s), Bitboard(occupied)).0;
    }
    t
}

/// Squares at king distance at most 1 from some square of `bb`.
pub const fn king_spread(bb: u64) -> u64 {
    let b = bb | ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_H);
    b | (b << 8) | (b >> 8)
}

/// Squares a knight move away from some square of `bb`.
pub const fn knight_spread(bb: u64) -> u64 {
    ((bb << 17) & NOT_A)
        | ((bb << 15) & NOT_H)
        | ((bb << 10) & NOT_AB)
        | ((bb << 6) & NOT_GH)
        | ((bb >> 17) & NOT_H)
        | ((bb >> 15) & NOT_A)
        | ((bb >> 10) & NOT_GH)
        | ((bb >> 6) & NOT_AB)
}

/// Squares attacked by pawns of `color` standing on `bb`.
pub const fn pawn_spread(bb: u64, white: bool) -> u64 {
    if white {
        ((bb << 7) & NOT_H) | ((bb << 9) & NOT_A)
    } else {
        ((bb >> 9) & NOT_H) | ((bb >> 7) & NOT_A)
    }
}

/// One step forward for pawns of the given colour.
pub const fn forward(bb: u64, white: bool) -> u64 {
    if white { bb << 8 } else { bb >> 8 }
}

const fn up_fill(mut gen_: u64, mut pro: u64, step: u32) -> u64 {
    gen_ |= pro & (gen_ << step);
    pro &= pro << step;
    gen_ |= pro & (gen_ << (2 * step));
    pro &= pro << (2 * step);
    gen_ |= pro & (gen_ << (4 * step));
    gen_ << step
}

const fn down_fill(mut gen_: u64, mut pro: u64, step: u32) -> u64 {
    gen_ |= pro & (gen_ >> step);
    pro &= pro >> step;
    gen_ |= pro & (gen_ >> (2 * step));
    pro &= pro >> (2 * step);
    gen_ |= pro & (gen_ >> (4 * step));
    gen_ >> step
}

/// Every square attacked by sliders on `gen_` when only `!empty` blocks
/// (Kogge-Stone fills: no loop over squares).
pub const fn slide_attacks(gen_: u64, empty: u64, diagonal: bool, straight: bool) -> u64 {
    let mut out = 0;
    if straight {
        out |= up_fill(gen_, empty, 8) | down_fill(gen_, empty, 8);
        out |= up_fill(gen_, empty & NOT_A, 1) & NOT_A;
        out |= down_fill(gen_, empty & NOT_H, 1) & NOT_H;
    }
    if diagonal {
        let e = empty & NOT_A;
        out |= (up_fill(gen_, e, 9) & NOT_A) | (down_fill(gen_, e, 7) & NOT_A);
        let e = empty & NOT_H;
        out |= (up_fill(gen_, e, 7) & NOT_H) | (down_fill(gen_, e, 9) & NOT_H);
    }
    out
}

/// A board's bitboards by role: pawns, knights, bishops, rooks, queens, kings.
pub fn roles(b: &Board) -> [u64; 6] {
    [
        b.pawns().0,
        b.knights().0,
        b.bishops().0,
        b.rooks().0,
        b.queens().0,
        b.kings().0,
    ]
}

/// The board of these bitboards by role and of White's pieces (`None` where
/// they do not make one).
pub fn board_of(roles: [u64; 6], white: u64) -> Option<Board> {
    let occupied = roles.iter().fold(0, |a, b| a | b);
    let [pawn, knight, bishop, rook, queen, king] = roles.map(Bitboard);
    Board::try_from_bitboards(
        ByRole {
            pawn,
            knight,
            bishop,
            rook,
            queen,
            king,
        },
        ByColor {
            black: Bitboard(occupied & !white),
            white: Bitboard(white),
        },
    )
    .ok()
}

/// Chebyshev (king) distance between two squares.
#[inline]
pub const fn king_distance(a: u32, b: u32) -> u32 {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 3).abs_diff(b >> 3);
    if df > dr { df } else { dr }
}

/// Knight moves between two squares on an empty board.
pub fn knight_distance(a: u32, b: u32) -> u32 {
    static TABLE: std::sync::OnceLock<Box<[[u8; 64]; 64]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[0u8; 64]; 64]);
        for from in 0..64u32 {
            let mut seen = bit(from);
            let mut frontier = seen;
            let mut d = 0;
            while frontier != 0 {
                for s in squares(frontier) {
                    t[from as usize][s as usize] = d;
                }
                d += 1;
                frontier = knight_spread(frontier) & !seen;
                seen |= frontier;
            }
        }
        t
    })[a as usize][b as usize] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_match_the_lookup_tables() {
        let occupied = 0x0000_2400_1000_4200u64;
        for s in 0..64 {
            let one = slide_attacks(bit(s), !occupied, true, true);
            assert_eq!(one, slider(s, true, true, occupied), "square {s}");
        }
    }

    #[test]
    fn distances() {
        assert_eq!(king_distance(0, 63), 7);
        assert_eq!(knight_distance(0, 63), 6);
        assert_eq!(knight_distance(0, 9), 4); // a1 to b2
        assert_eq!(knight_spread(bit(6)), knight(6));
        assert_eq!(king_spread(bit(0)), bit(0) | bit(1) | bit(8) | bit(9));
    }
}
