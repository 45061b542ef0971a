//! shakmaty glue: positions from FEN the way python-chess reads them, FEN and SAN out,
//! SAN in with python-chess's leniency, and the material description of a position.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, FromSetup, Move,
    Position, PositionError, Rank, Role, Setup, Square,
};

/// A FEN that cannot be read at all, or a position that cannot arise in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    Malformed(String),
    Illegal { fen: String, reason: String },
}

/// The position of a FEN. `chess960` asks for Chess960 castling; a FEN whose
/// castling rights only make sense in Chess960 (X-FEN or Shredder letters) selects
/// it too, as python-chess does. Returns the position and whether it is Chess960.
pub fn from_fen(fen: &str, chess960: bool) -> Result<(Chess, bool), SetupError> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| SetupError::Malformed(format!("{e}")))?;
    let setup = parsed.into_setup();
    from_setup(setup, chess960)
}

/// [`from_fen`] for a setup already read.
pub fn from_setup(setup: Setup, chess960: bool) -> Result<(Chess, bool), SetupError> {
    let chess960 = chess960 || CastlingMode::detect(&setup) == CastlingMode::Chess960;
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let setup_board = setup.board.clone();
    let shown = Fen::try_from_setup(setup.clone())
        .map_or_else(|e| e.ignore().to_string(), |f| f.to_string());
    match Chess::from_setup(setup, mode) {
        Ok(pos) => Ok((pos, chess960)),
        Err(e) => Err(SetupError::Illegal {
            fen: shown,
            reason: illegal_reason(&e, &setup_board),
        }),
    }
}

/// Why shakmaty refuses a position, in the words remis has always used.
fn illegal_reason(e: &PositionError<Chess>, board: &shakmaty::Board) -> String {
    use shakmaty::PositionErrorKinds as K;
    let (wk, bk) = (board.king_of(Color::White), board.king_of(Color::Black));
    if let (Some(w), Some(b)) = (wk, bk)
        && w.distance(b) <= 1
    {
        return "kings on adjacent squares".to_owned();
    }
    let kinds = e.kinds();
    let mut out: Vec<&str> = Vec::new();
    if kinds.contains(K::MISSING_KING) {
        if board.kings().intersect(board.white()).is_empty() {
            out.push("no white king");
        }
        if board.kings().intersect(board.black()).is_empty() {
            out.push("no black king");
        }
    }
    for (kind, text) in [
        (K::EMPTY_BOARD, "empty board"),
        (K::TOO_MANY_KINGS, "too many kings"),
        (K::PAWNS_ON_BACKRANK, "pawns on the first or last rank"),
        (
            K::INVALID_CASTLING_RIGHTS,
            "castling rights without king and rook on their squares",
        ),
        (K::INVALID_EP_SQUARE, "impossible en passant square"),
        (K::OPPOSITE_CHECK, "the side not to move is in check"),
        (K::IMPOSSIBLE_CHECK, "a check no legal move can have given"),
        (K::TOO_MUCH_MATERIAL, "more material than a game can have"),
        (K::VARIANT, "variant rule violated"),
    ] {
        if kinds.contains(kind) {
            out.push(text);
        }
    }
    if out.is_empty() {
        "illegal position".to_owned()
    } else {
        out.join(", ")
    }
}

/// The FEN python-chess prints: the en passant square only when a capture is legal.
pub fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The SAN of a legal move with its check or mate sign, as python-chess writes it.
pub fn san(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

/// UCI of a move, castling as the king's two-square step (standard) or king takes rook
/// (Chess960), as python-chess writes it.
pub fn uci(pos: &Chess, m: Move) -> String {
    m.to_uci(pos.castles().mode()).to_string()
}

/// A move python-chess's `Board.parse_san` would not read, with its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanError(pub String);

/// The move a SAN token names, exactly as python-chess's `Board.parse_san` reads it
/// (lenient about `x`, `-`, a missing `=`, long algebraic), except that a null move is
/// an error: it is no move under the Laws.
pub fn parse_san(pos: &Chess, san: &str) -> Result<Move, SanError> {
    let illegal = || SanError(format!("illegal san: '{san}' in {}", fen(pos)));
    let castle = match san {
        "O-O" | "O-O+" | "O-O#" | "0-0" | "0-0+" | "0-0#" => Some(CastlingSide::KingSide),
        "O-O-O" | "O-O-O+" | "O-O-O#" | "0-0-0" | "0-0-0+" | "0-0-0#" => {
            Some(CastlingSide::QueenSide)
        }
        _ => None,
    };
    if let Some(side) = castle {
        return pos
            .legal_moves()
            .into_iter()
            .find(|m| m.castling_side() == Some(side))
            .ok_or_else(illegal);
    }
    let Some(p) = SanParts::parse(san.as_bytes()) else {
        return Err(SanError(if matches!(san, "--" | "Z0" | "0000" | "@@@@") {
            format!("null move '{san}' is not a legal move in {}", fen(pos))
        } else if san.contains(',') {
            format!("unsupported multi-leg move: '{san}'")
        } else {
            format!("invalid san: '{san}'")
        }));
    };
    let turn = pos.turn();
    let board = pos.board();
    if p.role.is_none()
        && let (Some(file), Some(rank)) = (p.file, p.rank)
    {
        return find_move(pos, Square::from_coords(file, rank), p.to, p.promotion, san);
    }
    let mut from_mask = Bitboard::FULL;
    if let Some(file) = p.file {
        from_mask &= Bitboard::from_file(file);
    }
    if let Some(rank) = p.rank {
        from_mask &= Bitboard::from_rank(rank);
    }
    let role = p.role.unwrap_or(Role::Pawn);
    from_mask &= board.by_piece(role.of(turn));
    if p.role.is_none() && p.file.is_none() {
        from_mask &= Bitboard::from_file(p.to.file());
    }
    if board.by_color(turn).contains(p.to) {
        return Err(illegal());
    }
    let mut found: Option<Move> = None;
    for m in pos.san_candidates(role, p.to) {
        if m.from().is_none_or(|f| !from_mask.contains(f)) || m.promotion() != p.promotion {
            continue;
        }
        if found.is_some() {
            return Err(SanError(format!("ambiguous san: '{san}' in {}", fen(pos))));
        }
        found = Some(m);
    }
    found.ok_or_else(illegal)
}

/// python-chess's `Board.find_move` for a fully specified `from`-`to` token: a pawn
/// reaching the last rank promotes to a queen unless told otherwise, and in standard
/// chess the king's step of two squares (or onto its own rook) is castling.
fn find_move(
    pos: &Chess,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    san: &str,
) -> Result<Move, SanError> {
    let board = pos.board();
    let mut wanted = promotion;
    if wanted.is_none()
        && board.pawns().contains(from)
        && (to.rank() == Rank::First || to.rank() == Rank::Eighth)
    {
        wanted = Some(Role::Queen);
    }
    let chess960 = pos.castles().mode() == CastlingMode::Chess960;
    let mut target = to;
    if !chess960 && wanted.is_none() && board.kings().contains(from) {
        // python-chess reads e1h1 and e1a1 (the king onto its rook) as castling too
        if from == Square::E1 && to == Square::H1 || from == Square::E8 && to == Square::H8 {
            target = Square::from_coords(File::G, from.rank());
        } else if from == Square::E1 && to == Square::A1 || from == Square::E8 && to == Square::A8 {
            target = Square::from_coords(File::C, from.rank());
        }
    }
    let uci_to = |m: &Move| -> Square {
        match *m {
            Move::Castle { king, rook } if !chess960 => {
                let file = if rook.file() > king.file() {
                    File::G
                } else {
                    File::C
                };
                Square::from_coords(file, king.rank())
            }
            Move::Castle { rook, .. } => rook,
            other => other.to(),
        }
    };
    let found = pos
        .legal_moves()
        .into_iter()
        .find(|m| m.from() == Some(from) && uci_to(m) == target && m.promotion() == wanted);
    match found {
        Some(m) if m.promotion() == promotion => Ok(m),
        Some(_) => Err(SanError(format!(
            "missing promotion piece type: '{san}' in {}",
            fen(pos)
        ))),
        None => {
            let promo = wanted.map_or(String::new(), |r| r.char().to_string());
            Err(SanError(format!(
                "no matching legal move for {from}{target}{promo} ({from} -> {target}) in {}",
                fen(pos)
            )))
        }
    }
}

/// The parts of python-chess's SAN pattern
/// `([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?`.
struct SanParts {
    role: Option<Role>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl SanParts {
    fn parse(s: &[u8]) -> Option<SanParts> {
        // The pattern has optional parts before the target square; try the longest
        // readings first, as the regular expression's backtracking does.
        let mut i = 0;
        let role = match s.first() {
            Some(b'N') => Some(Role::Knight),
            Some(b'B') => Some(Role::Bishop),
            Some(b'K') => Some(Role::King),
            Some(b'R') => Some(Role::Rook),
            Some(b'Q') => Some(Role::Queen),
            _ => None,
        };
        if role.is_some() {
            i = 1;
        }
        let rest = &s[i..];
        // candidates for (file, rank, separator) prefixes, longest first
        for (use_file, use_rank) in [(true, true), (true, false), (false, true), (false, false)] {
            let mut j = 0;
            let mut file = None;
            let mut rank = None;
            if use_file {
                match rest.get(j) {
                    Some(c @ b'a'..=b'h') => {
                        file = Some(File::new(u32::from(c - b'a')));
                        j += 1;
                    }
                    _ => continue,
                }
            }
            if use_rank {
                match rest.get(j) {
                    Some(c @ b'1'..=b'8') => {
                        rank = Some(Rank::new(u32::from(c - b'1')));
                        j += 1;
                    }
                    _ => continue,
                }
            }
            for sep in [true, false] {
                let mut k = j;
                if sep {
                    match rest.get(k) {
                        Some(b'-' | b'x') => k += 1,
                        _ => continue,
                    }
                }
                if let Some(parts) = Self::tail(role, file, rank, &rest[k..]) {
                    return Some(parts);
                }
            }
        }
        None
    }

    fn tail(role: Option<Role>, file: Option<File>, rank: Option<Rank>, s: &[u8]) -> Option<Self> {
        let (f, r) = (*s.first()?, *s.get(1)?);
        if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
            return None;
        }
        let to = Square::from_coords(
            File::new(u32::from(f - b'a')),
            Rank::new(u32::from(r - b'1')),
        );
        let mut k = 2;
        let mut promotion = None;
        let promo_at = if s.get(k) == Some(&b'=') { k + 1 } else { k };
        if let Some(c) = s.get(promo_at)
            && let Some(r) = Role::from_char(c.to_ascii_lowercase() as char)
            && r != Role::Pawn
        {
            promotion = Some(r);
            k = promo_at + 1;
        }
        if matches!(s.get(k), Some(b'+' | b'#')) {
            k += 1;
        }
        (k == s.len()).then_some(SanParts {
            role,
            file,
            rank,
            to,
            promotion,
        })
    }
}

/// Material of both sides, White first: `K+B v K+N`.
pub fn describe_material(pos: &Chess) -> String {
    describe_units(pos.board())
}

/// [`describe_material`] of the units on a board.
pub fn describe_units(board: &shakmaty::Board) -> String {
    let side = |c: Color| {
        let mut parts = vec!["K"];
        for (role, letter) in [
            (Role::Queen, "Q"),
            (Role::Rook, "R"),
            (Role::Bishop, "B"),
            (Role::Knight, "N"),
            (Role::Pawn, "P"),
        ] {
            for _ in 0..board.by_piece(role.of(c)).count() {
                parts.push(letter);
            }
        }
        parts.join("+")
    };
    format!("{} v {}", side(Color::White), side(Color::Black))
}

/// The start position of standard chess.
pub fn start() -> Chess {
    Chess::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Chess, sans: &[&str]) {
        for s in sans {
            let m = parse_san(pos, s).unwrap();
            pos.play_unchecked(m);
        }
    }

    #[test]
    fn reads_san_as_python_chess_does() {
        let mut pos = start();
        assert_eq!(uci(&pos, parse_san(&pos, "Nf3").unwrap()), "g1f3");
        assert_eq!(uci(&pos, parse_san(&pos, "e2e4").unwrap()), "e2e4");
        assert_eq!(uci(&pos, parse_san(&pos, "Nxf3").unwrap()), "g1f3");
        assert_eq!(
            parse_san(&pos, "Nd2").unwrap_err().0,
            "illegal san: 'Nd2' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(
            parse_san(&pos, "--")
                .unwrap_err()
                .0
                .starts_with("null move '--'")
        );
        assert_eq!(parse_san(&pos, "Pe4").unwrap_err().0, "invalid san: 'Pe4'");
        play(&mut pos, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"]);
        let m = parse_san(&pos, "O-O").unwrap();
        assert_eq!(uci(&pos, m), "e1g1");
        assert_eq!(parse_san(&pos, "e1g1").unwrap(), m);
        assert_eq!(parse_san(&pos, "e1h1").unwrap(), m);
    }

    #[test]
    fn ambiguity_and_promotion() {
        let (pos, _) = from_fen("4k3/P7/8/8/8/8/4K3/R6R w - - 0 1", false).unwrap();
        assert!(
            parse_san(&pos, "Rd1")
                .unwrap_err()
                .0
                .starts_with("ambiguous san: 'Rd1'")
        );
        assert_eq!(uci(&pos, parse_san(&pos, "Rad1").unwrap()), "a1d1");
        assert_eq!(uci(&pos, parse_san(&pos, "a8=Q").unwrap()), "a7a8q");
        assert_eq!(uci(&pos, parse_san(&pos, "a8q").unwrap()), "a7a8q");
        assert!(
            parse_san(&pos, "a8")
                .unwrap_err()
                .0
                .starts_with("illegal san")
        );
        assert!(
            parse_san(&pos, "a7a8")
                .unwrap_err()
                .0
                .starts_with("missing promotion piece type")
        );
        assert_eq!(uci(&pos, parse_san(&pos, "a7a8q").unwrap()), "a7a8q");
        assert_eq!(describe_material(&pos), "K+R+R+P v K");
    }

    #[test]
    fn refuses_illegal_positions() {
        let e = from_fen("k7/8/8/8/8/8/8/K6r b - - 0 1", false).unwrap_err();
        assert!(matches!(e, SetupError::Illegal { ref reason, .. }
            if reason == "the side not to move is in check"));
        assert!(matches!(
            from_fen("xyz", false),
            Err(SetupError::Malformed(_))
        ));
        let (_, c960) = from_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            false,
        )
        .unwrap();
        assert!(c960);
    }
}
