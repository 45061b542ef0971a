//! Helpers for the unit tests.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

pub fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("a FEN")
        .into_position(CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_too_much_material)
        .expect("a legal position")
}

/// `line` is legal from `fen` and ends in a checkmate by `winner`.
pub fn replays_to_mate(fen: &str, line: &[Move], winner: Color) -> bool {
    let mut p = pos(fen);
    for &m in line {
        if !p.is_legal(m) {
            return false;
        }
        p.play_unchecked(m);
    }
    p.is_checkmate() && p.turn() != winner
}
