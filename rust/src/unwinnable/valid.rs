//! Is a position one that a game can reach? The same test as python-chess's
//! `Board.status()` plus remis's double-check rule, on raw bitboards, and the
//! words of a refusal: the one home of position legality. The engine asks it
//! before every question; `remis.fen.illegal_reason` (the Python face, for FENs,
//! the arbiter's start position and the engine's refusals) asks it too.

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, PositionError, Setup, Square, attacks,
};

use super::bits::{BACK_RANKS, RANK_1, RANK_8, bit, board_of, squares};

/// A board as python-chess holds it.
#[derive(Clone, Debug)]
pub struct Raw {
    /// Pawns, knights, bishops, rooks, queens, kings.
    pub roles: [u64; 6],
    pub white: u64,
    pub black: u64,
    pub turn: Color,
    /// Rook squares, as `Board.castling_rights`.
    pub castling: u64,
    pub ep: Option<u32>,
    pub chess960: bool,
    pub halfmoves: u32,
    pub fullmoves: u32,
}

// python-chess's status bits
pub const NO_WHITE_KING: u32 = 1;
pub const NO_BLACK_KING: u32 = 2;
pub const TOO_MANY_KINGS: u32 = 4;
pub const TOO_MANY_WHITE_PAWNS: u32 = 8;
pub const TOO_MANY_BLACK_PAWNS: u32 = 16;
pub const PAWNS_ON_BACKRANK: u32 = 32;
pub const TOO_MANY_WHITE_PIECES: u32 = 64;
pub const TOO_MANY_BLACK_PIECES: u32 = 128;
pub const BAD_CASTLING_RIGHTS: u32 = 256;
pub const INVALID_EP_SQUARE: u32 = 512;
pub const OPPOSITE_CHECK: u32 = 1024;
pub const EMPTY: u32 = 2048;
pub const TOO_MANY_CHECKERS: u32 = 32768;
pub const IMPOSSIBLE_CHECK: u32 = 65536;
/// Not python-chess's: remis's double check that no move can have given.
pub const UNEXPLAINED_DOUBLE_CHECK: u32 = 1 << 24;

/// The words of each status bit, in the order a refusal names them.
const STATUS_WORDS: [(u32, &str); 14] = [
    (NO_WHITE_KING, "no white king"),
    (NO_BLACK_KING, "no black king"),
    (TOO_MANY_KINGS, "too many kings"),
    (TOO_MANY_WHITE_PAWNS, "more than 8 white pawns"),
    (TOO_MANY_BLACK_PAWNS, "more than 8 black pawns"),
    (PAWNS_ON_BACKRANK, "pawns on the first or last rank"),
    (TOO_MANY_WHITE_PIECES, "more than 16 white pieces"),
    (TOO_MANY_BLACK_PIECES, "more than 16 black pieces"),
    (
        BAD_CASTLING_RIGHTS,
        "castling rights without king and rook on their squares",
    ),
    (INVALID_EP_SQUARE, "impossible en passant square"),
    (OPPOSITE_CHECK, "the side not to move is in check"),
    (EMPTY, "empty board"),
    (TOO_MANY_CHECKERS, "more than two pieces give check"),
    (IMPOSSIBLE_CHECK, "a check no legal move can have given"),
];

impl Raw {
    fn occupied(&self) -> u64 {
        self.white | self.black
    }

    fn side(&self, color: Color) -> u64 {
        if color == Color::White {
            self.white
        } else {
            self.black
        }
    }

    fn king(&self, color: Color) -> Option<u32> {
        let k = self.roles[5] & self.side(color);
        (k != 0).then(|| 63 - k.leading_zeros())
    }

    fn board(&self) -> Board {
        board_of(self.roles, self.white).unwrap_or_default()
    }

    /// Attackers of `color` on `s` (python-chess's `attackers_mask`).
    fn attackers(&self, color: Color, s: u32, occupied: u64) -> u64 {
        let [pawns, knights, bishops, rooks, queens, kings] = self.roles;
        let sq = Square::new(s);
        let occ = Bitboard(occupied);
        let hits = (attacks::king_attacks(sq).0 & kings)
            | (attacks::knight_attacks(sq).0 & knights)
            | (attacks::rook_attacks(sq, occ).0 & (rooks | queens))
            | (attacks::bishop_attacks(sq, occ).0 & (bishops | queens))
            | (attacks::pawn_attacks(!color, sq).0 & pawns);
        hits & self.side(color)
    }

    fn clean_castling(&self) -> u64 {
        let castling = self.castling & self.roles[3];
        let mut white = castling & RANK_1 & self.white;
        let mut black = castling & RANK_8 & self.black;
        let kings = self.roles[5];
        if !self.chess960 {
            white &= bit(0) | bit(7);
            black &= bit(56) | bit(63);
            if self.white & kings & bit(4) == 0 {
                white = 0;
            }
            if self.black & kings & bit(60) == 0 {
                black = 0;
            }
            return white | black;
        }
        let wk = self.white & kings & RANK_1;
        let bk = self.black & kings & RANK_8;
        if wk == 0 {
            white = 0;
        }
        if bk == 0 {
            black = 0;
        }
        let sides = |rights: u64, king: u64| -> u64 {
            let msb = |b: u64| 63 - b.leading_zeros();
            let mut a = rights & rights.wrapping_neg();
            let mut h = if rights != 0 { bit(msb(rights)) } else { 0 };
            if a != 0 && msb(a) > msb(king) {
                a = 0;
            }
            if h != 0 && msb(h) < msb(king) {
                h = 0;
            }
            a | h
        };
        sides(white, wk) | sides(black, bk)
    }

    fn valid_ep(&self) -> Option<u32> {
        let ep = self.ep?;
        let white = self.turn == Color::White;
        let (rank, pawn, seventh) = if white {
            (5, ep.checked_sub(8)?, ep + 8)
        } else {
            (2, ep + 8, ep.checked_sub(8)?)
        };
        if ep >> 3 != rank || seventh > 63 {
            return None;
        }
        let them = self.side(!self.turn);
        if self.roles[0] & them & bit(pawn) == 0
            || self.occupied() & bit(ep) != 0
            || self.occupied() & bit(seventh) != 0
        {
            return None;
        }
        Some(ep)
    }

    /// python-chess's `Board.status()` (standard chess), or'ed with
    /// [`UNEXPLAINED_DOUBLE_CHECK`] where remis refuses a double check.
    pub fn status(&self) -> u32 {
        let mut errors = 0;
        let occupied = self.occupied();
        let [pawns, _, _, _, _, kings] = self.roles;
        if occupied == 0 {
            errors |= EMPTY;
        }
        if self.white & kings == 0 {
            errors |= NO_WHITE_KING;
        }
        if self.black & kings == 0 {
            errors |= NO_BLACK_KING;
        }
        if (occupied & kings).count_ones() > 2 {
            errors |= TOO_MANY_KINGS;
        }
        if self.white.count_ones() > 16 {
            errors |= TOO_MANY_WHITE_PIECES;
        }
        if self.black.count_ones() > 16 {
            errors |= TOO_MANY_BLACK_PIECES;
        }
        if (self.white & pawns).count_ones() > 8 {
            errors |= TOO_MANY_WHITE_PAWNS;
        }
        if (self.black & pawns).count_ones() > 8 {
            errors |= TOO_MANY_BLACK_PAWNS;
        }
        if pawns & BACK_RANKS != 0 {
            errors |= PAWNS_ON_BACKRANK;
        }
        if self.castling != self.clean_castling() {
            errors |= BAD_CASTLING_RIGHTS;
        }
        let valid_ep = self.valid_ep();
        if self.ep != valid_ep {
            errors |= INVALID_EP_SQUARE;
        }
        if let Some(k) = self.king(!self.turn)
            && self.attackers(self.turn, k, occupied) != 0
        {
            errors |= OPPOSITE_CHECK;
        }
        let checkers = self
            .king(self.turn)
            .map_or(0, |k| self.attackers(!self.turn, k, occupied));
        if checkers != 0 {
            let n = checkers.count_ones();
            if n > 2 {
                errors |= TOO_MANY_CHECKERS;
            }
            let our_kings = kings & self.side(self.turn);
            if let Some(ep) = valid_ep {
                let pushed_to = ep ^ 8; // python-chess: ep ^ A2
                let pushed_from = ep ^ 24; // ep ^ A4
                let before = (occupied & !bit(pushed_to)) | bit(pushed_from);
                let last = 63 - checkers.leading_zeros();
                if n > 1
                    || (last != pushed_to
                        && squares(our_kings).any(|k| self.attackers(!self.turn, k, before) != 0))
                {
                    errors |= IMPOSSIBLE_CHECK;
                }
            } else if n > 2
                || (n == 2 && {
                    let lo = checkers.trailing_zeros();
                    let hi = 63 - checkers.leading_zeros();
                    attacks::ray(Square::new(lo), Square::new(hi)).0 & our_kings != 0
                })
            {
                errors |= IMPOSSIBLE_CHECK;
            }
            if errors == 0 && n == 2 && !self.double_check_explained(checkers) {
                errors |= UNEXPLAINED_DOUBLE_CHECK;
            }
        }
        errors
    }

    /// remis's rule: a double check
    /// stands only if the piece that moved could have come from the line of
    /// the other checker, a slider, to the king.
    fn double_check_explained(&self, checkers: u64) -> bool {
        let [_, _, bishops, rooks, queens, _] = self.roles;
        let sliders = checkers & (bishops | rooks | queens);
        if sliders == 0 {
            return false;
        }
        let Some(king) = self.king(self.turn) else {
            return true;
        };
        if self.chess960 || self.castled_or_en_passant() {
            return true;
        }
        squares(sliders).any(|d| {
            let line = attacks::between(Square::new(d), Square::new(king)).0;
            let rest = checkers & !bit(d);
            let mover = 63 - rest.leading_zeros();
            line & self.origins(mover) != 0
        })
    }

    /// The squares the unit on `to`, of the side that just moved, could have
    /// come from in one move.
    fn origins(&self, to: u32) -> u64 {
        let b = bit(to);
        let white = self.white & b != 0;
        let mut out = 0;
        if self.roles[0] & b == 0 {
            out |= self.board().attacks_from(Square::new(to)).0;
        }
        let last = if white { RANK_8 } else { RANK_1 };
        if self.roles[0] & b != 0 || last & b != 0 {
            let src = to as i32 + if white { -8 } else { 8 };
            if (0..64).contains(&src) {
                let src = src as u32;
                out |= bit(src);
                let file = to & 7;
                if file > 0 {
                    out |= bit(src - 1);
                }
                if file < 7 {
                    out |= bit(src + 1);
                }
                let start = if white { 0xFF << 24 } else { 0xFF << 32 };
                let src2 = src as i32 + if white { -8 } else { 8 };
                if start & b != 0 && (0..64).contains(&src2) {
                    out |= bit(src2 as u32);
                }
            }
        }
        out
    }

    fn castled_or_en_passant(&self) -> bool {
        let moved = !self.turn;
        let own = self.side(moved);
        let first = if moved == Color::White {
            RANK_1
        } else {
            RANK_8
        };
        let file_c = 0x0404_0404_0404_0404u64;
        let file_d = file_c << 1;
        let file_f = file_c << 3;
        let file_g = file_c << 4;
        let kings = self.roles[5] & own & first & (file_c | file_g);
        if kings != 0 && self.roles[3] & own & first & (file_d | file_f) != 0 {
            return true;
        }
        let sixth = if moved == Color::White {
            0xFFu64 << 40
        } else {
            0xFF << 16
        };
        let pawns = self.roles[0] & own & sixth;
        let behind = if moved == Color::White {
            pawns >> 8
        } else {
            pawns << 8
        };
        behind & !self.occupied() != 0
    }

    /// Why the position cannot arise in a game, in remis's words, or None when it can.
    pub fn illegal_reason(&self) -> Option<String> {
        let status = self.status();
        if status == 0 {
            return None;
        }
        if status & UNEXPLAINED_DOUBLE_CHECK != 0 {
            let [_, _, bishops, rooks, queens, _] = self.roles;
            let checkers = self
                .king(self.turn)
                .map_or(0, |k| self.attackers(!self.turn, k, self.occupied()));
            return Some(if checkers & (bishops | rooks | queens) == 0 {
                "two pieces give check and neither is a bishop, rook or queen".to_owned()
            } else {
                "a double check that no move can have given".to_owned()
            });
        }
        let kings = (self.king(Color::White), self.king(Color::Black));
        if let (Some(w), Some(b)) = kings {
            if Square::new(w).distance(Square::new(b)) <= 1 {
                return Some("kings on adjacent squares".to_owned());
            }
            if status & OPPOSITE_CHECK != 0
                && self.attackers(Color::Black, w, self.occupied()) != 0
                && self.attackers(Color::White, b, self.occupied()) != 0
            {
                return Some("both kings in check".to_owned());
            }
        }
        let names: Vec<&str> = STATUS_WORDS
            .iter()
            .filter(|(bit, _)| status & bit != 0)
            .map(|(_, words)| *words)
            .collect();
        Some(if names.is_empty() {
            format!("status {status}")
        } else {
            names.join(", ")
        })
    }

    /// The position, when [`Raw::status`] is 0.
    pub fn position(&self) -> Result<Chess, u32> {
        let status = self.status();
        if status != 0 {
            return Err(status);
        }
        let setup = Setup {
            board: self.board(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: self.turn,
            castling_rights: Bitboard(self.castling),
            ep_square: self.ep.map(Square::new),
            remaining_checks: None,
            halfmoves: self.halfmoves,
            fullmoves: std::num::NonZeroU32::new(self.fullmoves.max(1))
                .unwrap_or(std::num::NonZeroU32::MIN),
        };
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        // python-chess (and remis) accept what shakmaty is stricter about:
        // more promoted pieces than pawns missing, checks it deems impossible
        Chess::from_setup(setup, mode)
            .or_else(PositionError::ignore_too_much_material)
            .or_else(PositionError::ignore_impossible_check)
            .or_else(PositionError::ignore_invalid_ep_square)
            .map_err(|_| IMPOSSIBLE_CHECK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{EnPassantMode, Position};

    fn raw(fen: &str) -> Raw {
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        let (roles, colors) = setup.board.clone().into_bitboards();
        Raw {
            roles: [
                roles.pawn,
                roles.knight,
                roles.bishop,
                roles.rook,
                roles.queen,
                roles.king,
            ]
            .map(|b| b.0),
            white: colors.white.0,
            black: colors.black.0,
            turn: setup.turn,
            castling: setup.castling_rights.0,
            ep: setup.ep_square.map(u32::from),
            chess960: false,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    #[test]
    fn statuses() {
        assert_eq!(
            raw("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").status(),
            0
        );
        assert_eq!(raw("k7/8/8/8/8/8/8/K6r b - - 0 1").status(), OPPOSITE_CHECK);
        assert_eq!(raw("4k3/8/8/8/8/8/8/8 w - - 0 1").status(), NO_WHITE_KING);
        assert_eq!(
            raw("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1").status(),
            UNEXPLAINED_DOUBLE_CHECK
        );
        assert_eq!(
            raw("4k3/8/8/8/1b5b/8/8/4K3 w - - 0 1").status(),
            UNEXPLAINED_DOUBLE_CHECK
        );
        assert_eq!(raw("4k3/8/8/1B6/8/8/8/4RK2 b - - 0 1").status(), 0);
        assert_eq!(
            raw("4k3/8/8/8/8/8/8/4K3 w K - 0 1").status(),
            BAD_CASTLING_RIGHTS
        );
        assert_eq!(
            raw("4k3/8/8/8/8/8/8/4K3 w - e6 0 1").status(),
            INVALID_EP_SQUARE
        );
        let r = raw("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(r.status(), 0);
        assert!(
            r.position()
                .unwrap()
                .ep_square(EnPassantMode::Legal)
                .is_some()
        );
    }
}

/// Properties of the FEN reader and of the legality test (proptest, a few hundred
/// cases each: `cargo test` runs them).
#[cfg(test)]
mod properties {
    use proptest::prelude::*;
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::board::{fen, from_fen};

    fn raw_of(pos: &Chess) -> Raw {
        let (roles, colors) = pos.board().clone().into_bitboards();
        Raw {
            roles: [
                roles.pawn,
                roles.knight,
                roles.bishop,
                roles.rook,
                roles.queen,
                roles.king,
            ]
            .map(|b| b.0),
            white: colors.white.0,
            black: colors.black.0,
            turn: pos.turn(),
            castling: pos.castles().castling_rights().0,
            ep: pos.ep_square(shakmaty::EnPassantMode::Legal).map(u32::from),
            chess960: false,
            halfmoves: pos.halfmoves(),
            fullmoves: pos.fullmoves().get(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any text is read as a FEN or refused, never a panic.
        #[test]
        fn any_text_is_read_or_refused(text in "[0-9KQRBNPkqrbnp/ wb-]{0,80}") {
            if let Ok((pos, _)) = from_fen(&text, false) {
                prop_assert!(from_fen(&fen(&pos), false).is_ok());
            }
        }

        /// A position reached by legal moves is legal, and its FEN reads back as it.
        #[test]
        fn positions_of_play_are_legal(choices in prop::collection::vec(any::<u16>(), 0..80)) {
            let mut pos = Chess::default();
            for c in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[usize::from(c) % moves.len()];
                pos.play_unchecked(m);
                let raw = raw_of(&pos);
                prop_assert_eq!(raw.status(), 0, "{}", fen(&pos));
                prop_assert_eq!(raw.illegal_reason(), None);
                let (back, _) = from_fen(&fen(&pos), false).unwrap();
                prop_assert_eq!(fen(&back), fen(&pos));
            }
        }

        /// On any placement the words and the status agree, and a board the test
        /// accepts is a position the engine can take.
        #[test]
        fn the_words_follow_the_status(
            squares in prop::collection::vec((0u32..64, 0usize..12), 0..20),
            white_to_move in any::<bool>(),
            ep in prop::option::of(0u32..64),
        ) {
            let mut raw = Raw {
                roles: [0; 6],
                white: 0,
                black: 0,
                turn: if white_to_move { Color::White } else { Color::Black },
                castling: 0,
                ep,
                chess960: false,
                halfmoves: 0,
                fullmoves: 1,
            };
            for (sq, piece) in squares {
                let b = 1u64 << sq;
                if (raw.white | raw.black) & b != 0 {
                    continue;
                }
                raw.roles[piece % 6] |= b;
                if piece < 6 {
                    raw.white |= b;
                } else {
                    raw.black |= b;
                }
            }
            prop_assert_eq!(raw.illegal_reason().is_none(), raw.status() == 0);
            if raw.status() == 0 {
                prop_assert!(raw.position().is_ok());
            }
        }
    }
}
