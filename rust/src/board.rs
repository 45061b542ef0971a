//! shakmaty glue: positions from FEN the way python-chess reads them, FEN and SAN out,
//! SAN in with python-chess's leniency, and the material description of a position.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, FromSetup, Move,
    Position, PositionError, Rank, Role, Setup, Square, attacks,
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
///
/// # Errors
///
/// [`SetupError::Malformed`] for text that is no FEN, [`SetupError::Illegal`] for a
/// position that cannot arise in a game (with shakmaty's reason).
///
/// ```
/// use _core::board::{fen, from_fen};
///
/// let (pos, chess960) = from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", false).unwrap();
/// assert!(!chess960);
/// assert_eq!(fen(&pos), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
/// assert!(from_fen("8/8/8/8/8/8/8/8 w - - 0 1", false).is_err()); // no kings
/// assert!(from_fen("not a fen", false).is_err());
/// ```
pub fn from_fen(fen: &str, chess960: bool) -> Result<(Chess, bool), SetupError> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| SetupError::Malformed(format!("{e}")))?;
    let setup = parsed.into_setup();
    from_setup(setup, chess960)
}

/// [`from_fen`] for a setup already read.
///
/// # Errors
///
/// [`SetupError::Illegal`] for a position that cannot arise in a game.
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
#[must_use]
pub fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The SAN of a legal move with its check or mate sign, as python-chess writes it.
#[must_use]
pub fn san(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

/// UCI of a move, castling as the king's two-square step (standard) or king takes rook
/// (Chess960), as python-chess writes it.
#[must_use]
pub fn uci(pos: &Chess, m: Move) -> String {
    m.to_uci(pos.castles().mode()).to_string()
}

/// A move python-chess's `Board.parse_san` would not read, with its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanError(pub String);

/// The move a SAN token names, exactly as python-chess's `Board.parse_san` reads it
/// (lenient about `x`, `-`, a missing `=`, long algebraic), except that a null move is
/// an error: it is no move under the Laws.
///
/// # Errors
///
/// A [`SanError`] with python-chess's message where the token names no legal move.
///
/// ```
/// use _core::board::{parse_san, san, start, uci};
///
/// let pos = start();
/// let m = parse_san(&pos, "Nf3").unwrap();
/// assert_eq!(san(&pos, m.clone()), "Nf3");
/// assert_eq!(uci(&pos, m), "g1f3");
/// assert_eq!(parse_san(&pos, "g1f3"), parse_san(&pos, "Nf3")); // long algebraic
/// assert!(parse_san(&pos, "Ke2").is_err());
/// assert!(parse_san(&pos, "--").is_err()); // a null move
/// ```
pub fn parse_san(pos: &Chess, san: &str) -> Result<Move, SanError> {
    parse_san_bytes(pos, san.as_bytes())
}

/// [`parse_san`] of a token as the PGN reader cuts it (ASCII, but for a bad token).
///
/// # Errors
///
/// As [`parse_san`].
pub fn parse_san_bytes(pos: &Chess, token: &[u8]) -> Result<Move, SanError> {
    // (the token as text, for the messages only)
    let san = || String::from_utf8_lossy(token);
    let illegal = || SanError(format!("illegal san: '{}' in {}", san(), fen(pos)));
    let castle = match token {
        b"O-O" | b"O-O+" | b"O-O#" | b"0-0" | b"0-0+" | b"0-0#" => Some(CastlingSide::KingSide),
        b"O-O-O" | b"O-O-O+" | b"O-O-O#" | b"0-0-0" | b"0-0-0+" | b"0-0-0#" => {
            Some(CastlingSide::QueenSide)
        }
        _ => None,
    };
    if let Some(side) = castle {
        return pos
            .castling_moves(side)
            .first()
            .copied()
            .ok_or_else(illegal);
    }
    let Some(p) = SanParts::parse(token) else {
        let san = san();
        return Err(SanError(
            if matches!(token, b"--" | b"Z0" | b"0000" | b"@@@@") {
                format!("null move '{san}' is not a legal move in {}", fen(pos))
            } else if token.contains(&b',') {
                format!("unsupported multi-leg move: '{san}'")
            } else {
                format!("invalid san: '{san}'")
            },
        ));
    };
    let turn = pos.turn();
    let board = pos.board();
    if p.role.is_none()
        && let (Some(file), Some(rank)) = (p.file, p.rank)
    {
        return find_move(
            pos,
            Square::from_coords(file, rank),
            p.to,
            p.promotion,
            &san(),
        );
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
    let mut ambiguous = false;
    let mut take = |m: Move| {
        if m.from().is_none_or(|f| !from_mask.contains(f)) || m.promotion() != p.promotion {
            return;
        }
        ambiguous |= found.is_some();
        found = Some(m);
    };
    if !candidates(pos, role, p.to, &mut take) {
        pos.san_candidates(role, p.to).iter().for_each(|&m| take(m));
    }
    if ambiguous {
        return Err(SanError(format!(
            "ambiguous san: '{}' in {}",
            san(),
            fen(pos)
        )));
    }
    found.ok_or_else(illegal)
}

/// The legal moves of a `role` of the side to move to `to` (not a square of its own),
/// each handed to `take`, as shakmaty's `san_candidates` gives them, in the usual case:
/// not in check, and no en passant capture on `to`. False (and nothing handed on)
/// otherwise. (`san_candidates` returns a list of 2 KB by value: copying it cost more
/// than finding the moves.)
pub fn candidates(pos: &Chess, role: Role, to: Square, take: &mut impl FnMut(Move)) -> bool {
    let b = pos.board();
    let us = pos.turn();
    let Some(king) = b.king_of(us) else {
        return false;
    };
    if pos.is_check() || role == Role::Pawn && pos.ep_square(EnPassantMode::Always) == Some(to) {
        return false;
    }
    let occupied = b.occupied();
    let them = b.by_color(!us);
    // a pinned piece moves only along the line of its pin
    let mut pinned = Bitboard::EMPTY;
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & b.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & (b.bishops() | b.queens()))
        & them;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    let legal = |from: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let capture = b.role_at(to);
    let normal = |from: Square, promotion: Option<Role>| Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    };
    match role {
        Role::King => {
            if attacks::king_attacks(king).contains(to)
                && b.attacks_to(to, !us, occupied).is_empty()
            {
                take(normal(king, None));
            }
        }
        Role::Pawn => {
            let pawns = b.by_piece(role.of(us));
            let mut from = Bitboard::EMPTY;
            if them.contains(to) {
                from |= attacks::pawn_attacks(!us, to) & pawns;
            } else if !occupied.contains(to) {
                let back = |s: Square| s.offset(if us == Color::White { -8 } else { 8 });
                if let Some(one) = back(to) {
                    if pawns.contains(one) {
                        from |= Bitboard::from_square(one);
                    } else if !occupied.contains(one)
                        && to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth)
                        && let Some(two) = back(one)
                        && pawns.contains(two)
                    {
                        from |= Bitboard::from_square(two);
                    }
                }
            }
            for f in from {
                if !legal(f) {
                    continue;
                }
                if to.rank() == us.fold_wb(Rank::Eighth, Rank::First) {
                    for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        take(normal(f, Some(r)));
                    }
                } else {
                    take(normal(f, None));
                }
            }
        }
        _ => {
            let from = attacks::attacks(to, role.of(us), occupied) & b.by_piece(role.of(us));
            for f in from {
                if legal(f) {
                    take(normal(f, None));
                }
            }
        }
    }
    true
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
        .iter()
        .find(|m| m.from() == Some(from) && uci_to(m) == target && m.promotion() == wanted)
        .copied();
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
#[derive(Debug, PartialEq, Eq)]
struct SanParts {
    role: Option<Role>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl SanParts {
    fn parse(s: &[u8]) -> Option<SanParts> {
        // the usual move, a piece (or pawn) to a square: the one reading the general
        // parse would find
        let role = SanParts::role(s.first());
        let rest = &s[usize::from(role.is_some())..];
        if let [f @ b'a'..=b'h', r @ b'1'..=b'8', check @ ..] = rest
            && matches!(check, [] | [b'+' | b'#'])
        {
            return Some(SanParts {
                role,
                file: None,
                rank: None,
                to: Square::from_coords(
                    File::new(u32::from(f - b'a')),
                    Rank::new(u32::from(r - b'1')),
                ),
                promotion: None,
            });
        }
        SanParts::parse_any(s)
    }

    fn parse_any(s: &[u8]) -> Option<SanParts> {
        // The pattern has optional parts before the target square; try the longest
        // readings first, as the regular expression's backtracking does.
        let mut i = 0;
        let role = SanParts::role(s.first());
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

    /// The piece a SAN token's first letter names (none: a pawn).
    fn role(first: Option<&u8>) -> Option<Role> {
        match first {
            Some(b'N') => Some(Role::Knight),
            Some(b'B') => Some(Role::Bishop),
            Some(b'K') => Some(Role::King),
            Some(b'R') => Some(Role::Rook),
            Some(b'Q') => Some(Role::Queen),
            _ => None,
        }
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
///
/// ```
/// use _core::board::{describe_material, from_fen};
///
/// let (pos, _) = from_fen("8/8/8/4k3/8/2n5/8/KB6 w - - 0 1", false).unwrap();
/// assert_eq!(describe_material(&pos), "K+B v K+N");
/// ```
#[must_use]
pub fn describe_material(pos: &Chess) -> String {
    describe_units(pos.board())
}

/// [`describe_material`] of the units on a board.
#[must_use]
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
#[must_use]
pub fn start() -> Chess {
    Chess::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_san_is_read_as_the_general_parse_reads_it() {
        for role in ["", "N", "B", "K", "R", "Q"] {
            for square in ["a1", "e4", "h8", "c6"] {
                for check in ["", "+", "#"] {
                    let token = format!("{role}{square}{check}");
                    let t = token.as_bytes();
                    assert_eq!(SanParts::parse(t), SanParts::parse_any(t), "{token}");
                    assert!(SanParts::parse(t).is_some());
                }
            }
        }
        // not of that shape: the general parse
        for token in ["exd5", "Nbd7", "e8=Q", "e8Q+", "R1e2", "e4++", "Pe4"] {
            let t = token.as_bytes();
            assert_eq!(SanParts::parse(t), SanParts::parse_any(t), "{token}");
        }
    }

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
    fn candidates_are_shakmatys() {
        // pins (along the pin and off it), pawn pushes of one and two squares, captures,
        // promotions, a king next to attacked squares
        for fen in [
            "4k3/8/8/1b6/8/3N4/4P3/4K2R w K - 0 1",
            "r3k3/1P6/8/3pP3/2B5/8/6p1/R3K2R w KQq - 0 1",
            "4k3/4r3/8/8/4R3/8/4K3/8 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        ] {
            let (pos, _) = from_fen(fen, false).unwrap();
            for role in Role::ALL {
                for to in Square::ALL {
                    if pos.board().by_color(pos.turn()).contains(to) {
                        continue;
                    }
                    let mut ours = Vec::new();
                    assert!(candidates(&pos, role, to, &mut |m| ours.push(m)), "{fen}");
                    let theirs: Vec<Move> = pos.san_candidates(role, to).iter().copied().collect();
                    let key = |m: &Move| m.to_string();
                    ours.sort_by_key(key);
                    let mut theirs = theirs;
                    theirs.sort_by_key(key);
                    assert_eq!(ours, theirs, "{fen} {role:?} {to}");
                }
            }
        }
        // in check, and an en passant capture on the square: shakmaty's own list
        let (check, _) = from_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", false).unwrap();
        assert!(!candidates(&check, Role::King, Square::D2, &mut |_| ()));
        let (ep, _) = from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false).unwrap();
        assert!(!candidates(&ep, Role::Pawn, Square::D6, &mut |_| ()));
        assert_eq!(uci(&ep, parse_san(&ep, "exd6").unwrap()), "e5d6");
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
