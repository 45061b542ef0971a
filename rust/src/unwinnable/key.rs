//! A position's identity for the searches' tables: 128 bits mixed from the
//! board, the side to move, the castling rights and a *legal* en passant
//! square, so that two positions share a key only by a chance of about
//! 2^-128 per pair (a proof by exhaustion leans on the table).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use shakmaty::{Chess, EnPassantMode, Position};

use super::bits::roles;

pub type Key = u128;

#[inline]
const fn mix(mut x: u64) -> u64 {
    // splitmix64's finaliser
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

const SEEDS: [(u64, u64); 8] = [
    (0x9e37_79b9_7f4a_7c15, 0xd1b5_4a32_d192_ed03),
    (0x3c6e_f372_fe94_f82a, 0xa3b1_9535_4a39_b70d),
    (0xdaa6_6d2c_7ddf_743f, 0x7546_8c2a_fed0_1f15),
    (0x78dd_e6e5_fd29_f054, 0x4cf5_ad43_2745_937f),
    (0x1715_609f_7c74_6c69, 0x2b7e_1516_28ae_d2a6),
    (0xb54c_da59_fbbe_e87e, 0x6a09_e667_f3bc_c909),
    (0x5384_5413_7b09_6493, 0xbb67_ae85_84ca_a73b),
    (0xf1bb_cdcb_fa53_e0a8, 0x3c6e_f372_fe94_f82b),
];

/// The key of `pos`.
#[inline]
pub fn key(pos: &Chess) -> Key {
    let b = pos.board();
    let ep = pos
        .ep_square(EnPassantMode::Legal)
        .map_or(0, |s| u64::from(s) + 1);
    // the castling rights are rook squares, on the first and last ranks (bits 0-7 and
    // 56-63): the en passant square and the side to move go in bits no right uses
    let meta = pos.castles().castling_rights().0 | (ep << 8) | ((pos.turn() as u64) << 16);
    let [p, n, bi, r, q, k] = roles(b);
    let words = [p, n, bi, r, q, k, b.white().0, meta];
    let (mut h1, mut h2) = (0u64, 0u64);
    for (w, (s1, s2)) in words.iter().zip(SEEDS) {
        h1 ^= mix(w ^ s1);
        h2 ^= mix(w.wrapping_add(s2));
    }
    (u128::from(h1) << 64) | u128::from(h2)
}

/// A hasher for keys that are random already: their low 64 bits.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, k: u128) {
        self.0 = k as u64;
    }
}

pub type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;
pub type KeySet = HashSet<Key, BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::testing::pos;

    #[test]
    fn the_side_to_move_and_a_castling_right_never_share_a_key() {
        // the same board: Black to move with White's a1 right, White to move without it
        // (the right's bit and the side to move once shared a bit of the key)
        let a = pos("8/8/8/8/8/8/6k1/R3K3 b Q - 0 1");
        let b = pos("8/8/8/8/8/8/6k1/R3K3 w - - 0 1");
        assert_ne!(key(&a), key(&b));
    }
}
