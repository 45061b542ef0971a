//! Streaming PGN reading: games cut out of a byte stream with their byte offsets, tags
//! read, and the main line handed to a visitor token by token, never the whole file (nor
//! a whole game's moves) in memory.
//!
//! Each game is cut out first (tags, then movetext up to the blank line that ends it) and
//! read on its own, so a broken game cannot swallow the next one. The movetext is read
//! as python-chess reads it (the same tokens, the same leniency), and what python-chess
//! would skip without a word (`Qxx7`, `e4,`), an unclosed comment or variation, and a
//! tag block without moves are reported where they stand. Lines that are not UTF-8 are
//! read as Latin-1, as real files (old ChessBase exports) need.

use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// Largest game text read (bytes); a longer one is reported and skipped, so that one
/// damaged file cannot make the reader hold gigabytes.
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// The raw text of one game.
#[derive(Clone, Debug, Default)]
pub struct GameText {
    /// 1-based number of the game in its file (or range)
    pub index: u64,
    /// byte offset of the game's first line in the (decompressed) stream
    pub offset: u64,
    pub text: Vec<u8>,
    /// a `{` in it is never closed: the reader cut the game at the next tag pair
    pub unclosed_comment: bool,
    /// a tag block with no moves, followed by another tag block (at `next_offset`)
    pub tags_only: Option<u64>,
    /// the game is longer than [`MAX_GAME_BYTES`]: its text was dropped
    pub too_long: bool,
}

/// Cuts a byte stream into games. `offset` is the stream's position in its file; games
/// that start at or after `end` are not returned (workers split a file by byte ranges).
pub struct Splitter<R> {
    src: R,
    pos: u64,
    end: Option<u64>,
    index: u64,
    first_index: u64,
    pending: Option<Vec<u8>>,
    done: bool,
    line: Vec<u8>,
}

impl<R: BufRead> Splitter<R> {
    pub fn new(src: R, offset: u64, end: Option<u64>, first_index: u64) -> Self {
        Splitter {
            src,
            pos: offset,
            end,
            index: first_index,
            first_index,
            pending: None,
            done: false,
            line: Vec::new(),
        }
    }

    /// Bytes consumed so far (the offset of the next unread line).
    pub fn consumed(&self) -> u64 {
        self.pos
    }

    fn next_line(&mut self) -> io::Result<Option<(u64, Vec<u8>)>> {
        if let Some(line) = self.pending.take() {
            let start = self.pos - line.len() as u64;
            return Ok(Some((start, line)));
        }
        self.line.clear();
        let n = self.src.read_until(b'\n', &mut self.line)?;
        if n == 0 {
            return Ok(None);
        }
        let start = self.pos;
        self.pos += n as u64;
        Ok(Some((start, std::mem::take(&mut self.line))))
    }

    /// The next game, or None at the end. An I/O error (a damaged compressed stream) is
    /// returned after every game read whole before it.
    pub fn next_game(&mut self) -> io::Result<Option<GameText>> {
        if self.done {
            return Ok(None);
        }
        let mut g = GameText {
            index: self.index,
            // the size of most games' text: it seldom grows
            text: Vec::with_capacity(2048),
            ..GameText::default()
        };
        let mut lines = false;
        let mut in_movetext = false;
        let mut in_comment = false;
        let mut prev_blank = false;
        let mut blank_after_tags = false;
        let mut tags: Vec<Vec<u8>> = Vec::new();
        loop {
            // A read error (a damaged compressed stream) drops the game it cut short:
            // its record is incomplete, and a ruling on it would be wrong.
            let read = self.next_line().inspect_err(|_| self.done = true)?;
            let Some((line_start, mut line)) = read else {
                self.done = true;
                if lines && has_text(&g.text) {
                    g.unclosed_comment |= in_comment;
                    return Ok(Some(self.finish(g)));
                }
                return Ok(None);
            };
            if self.index == self.first_index && !lines && line.starts_with(b"\xef\xbb\xbf") {
                line.drain(..3);
            }
            let stripped = trim(&line);
            if in_comment && prev_blank && is_tag_line(stripped) {
                // a tag pair after a blank line inside a comment: the comment was never
                // closed; end the broken game here instead of swallowing the file
                self.pending = Some(line);
                g.unclosed_comment = true;
                return Ok(Some(self.finish(g)));
            }
            prev_blank = stripped.is_empty();
            if !in_comment {
                if stripped.is_empty() {
                    // the line's buffer serves the next line (one allocation a stream,
                    // not one a line)
                    self.line = line;
                    if in_movetext {
                        let out = self.finish(g);
                        if self.end.is_some_and(|e| self.pos >= e) {
                            self.done = true;
                        }
                        return Ok(Some(out));
                    }
                    if lines {
                        blank_after_tags = true;
                    }
                    continue;
                }
                if stripped.starts_with(b"[") && in_movetext {
                    // a tag line right after movetext without a blank line: a new game
                    self.pending = Some(line);
                    return Ok(Some(self.finish(g)));
                }
                if !in_movetext && lines && blank_after_tags {
                    // a second tag block whose tag repeats one of the first: the first
                    // block had no moves, and its tags (a FEN) must not merge into this game
                    if let Some(name) = tag_name(stripped)
                        && tags.iter().any(|t| t.as_slice() == name)
                    {
                        g.tags_only = Some(line_start);
                        self.pending = Some(line);
                        return Ok(Some(self.finish(g)));
                    }
                }
                if !lines {
                    g.offset = line_start;
                    if self.end.is_some_and(|e| line_start >= e) {
                        self.done = true;
                        return Ok(None);
                    }
                }
                if !stripped.starts_with(b"[") && !stripped.starts_with(b"%") {
                    in_movetext = true;
                } else if let Some(name) = tag_name(stripped) {
                    tags.push(name.to_vec());
                }
            } else if !lines {
                g.offset = line_start;
            }
            lines = true;
            if in_movetext || in_comment {
                in_comment = comment_state(&line, in_comment);
            }
            if g.text.len() + line.len() > MAX_GAME_BYTES {
                g.too_long = true;
                g.text.clear();
            }
            if !g.too_long {
                g.text.extend_from_slice(&line);
            }
            self.line = line;
        }
    }

    fn finish(&mut self, g: GameText) -> GameText {
        self.index += 1;
        g
    }
}

impl<R: BufRead> Iterator for Splitter<R> {
    type Item = io::Result<GameText>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

fn has_text(text: &[u8]) -> bool {
    text.iter().any(|c| !c.is_ascii_whitespace())
}

fn trim(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// `[Name "value"]` on a line of its own (after trimming).
fn is_tag_line(s: &[u8]) -> bool {
    let Some(inner) = s.strip_prefix(b"[").and_then(|r| r.strip_suffix(b"\"]")) else {
        return false;
    };
    let name_len = inner
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    if name_len == 0 {
        return false;
    }
    let rest = &inner[name_len..];
    let ws = rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
    ws > 0 && rest.get(ws) == Some(&b'"') && !rest[ws + 1..].contains(&b'"')
}

/// The name of a tag line's tag, as python-chess's pattern reads it.
fn tag_name(s: &[u8]) -> Option<&[u8]> {
    parse_tag(s).map(|(name, _)| name)
}

/// Whether a brace comment is open at the end of `line`.
fn comment_state(line: &[u8], mut in_comment: bool) -> bool {
    let mut at = 0;
    loop {
        if in_comment {
            match memchr(b'}', &line[at..]) {
                None => return true,
                Some(i) => {
                    at += i + 1;
                    in_comment = false;
                }
            }
        } else {
            let Some(brace) = memchr(b'{', &line[at..]) else {
                return false;
            };
            if memchr(b';', &line[at..at + brace]).is_some() {
                return false;
            }
            in_comment = true;
            at += brace + 1;
        }
    }
}

fn memchr(c: u8, s: &[u8]) -> Option<usize> {
    s.iter().position(|x| *x == c)
}

/// python-chess's tag pattern `^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$`.
fn parse_tag(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let s = line.trim_ascii_end();
    let s = s.strip_prefix(b"[")?.strip_suffix(b"\"]")?;
    let first = *s.first()?;
    if !first.is_ascii_alphanumeric() {
        return None;
    }
    let n = 1 + s[1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || b"_+#=:-".contains(c))
        .count();
    let rest = &s[n..];
    let ws = rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
    if ws == 0 || rest.get(ws) != Some(&b'"') {
        return None;
    }
    let value = &rest[ws + 1..];
    if value.contains(&b'\r') {
        return None;
    }
    Some((&s[..n], value))
}

/// Decode one line as UTF-8, falling back to Latin-1.
pub fn decode(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => raw.iter().map(|&b| b as char).collect(),
    }
}

/// The tags of a game, in order (a repeated tag keeps its first place, its last value),
/// and the byte index where the movetext starts.
pub fn read_tags(text: &[u8]) -> (Vec<(String, String)>, usize) {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut at = 0;
    let mut first = true;
    // leading empty lines and comment lines
    let mut empty = 0;
    let mut found = false;
    while at < text.len() {
        let end = line_end(text, at);
        let mut line = &text[at..end];
        if first {
            line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
            first = false;
        }
        if line.starts_with(b"%") || line.starts_with(b";") {
            at = end;
            continue;
        }
        if is_space(line) && (!found || empty < 1) {
            if found {
                empty += 1;
            }
            at = end;
            continue;
        }
        found = true;
        if !line.starts_with(b"[") {
            break;
        }
        empty = 0;
        if let Some((name, value)) = parse_tag(line) {
            let (name, value) = (decode(name), decode_value(line, value));
            match tags.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = value,
                None => tags.push((name, value)),
            }
        }
        at = end;
    }
    (tags, at)
}

/// A tag's value decoded as its line is (UTF-8, or Latin-1 when the line is not UTF-8).
fn decode_value(line: &[u8], value: &[u8]) -> String {
    if std::str::from_utf8(line).is_ok() {
        String::from_utf8_lossy(value).into_owned()
    } else {
        value.iter().map(|&b| b as char).collect()
    }
}

fn line_end(text: &[u8], at: usize) -> usize {
    memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i + 1)
}

/// `str.isspace()` of a line: not empty, all whitespace.
fn is_space(line: &[u8]) -> bool {
    !line.is_empty() && line.iter().all(u8::is_ascii_whitespace)
}

/// What stops the main line, where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovetextError {
    /// the ply the problem stands at (the main line's moves before it are good)
    pub ply: u32,
    pub message: String,
    /// byte offset in the text of the game
    pub at: usize,
}

/// What the reader hands the main line to.
pub trait MainLine {
    /// One SAN token of the main line (check signs stripped), at byte `at` of the game
    /// text. `Break` stops reading (an illegal move).
    fn san(&mut self, san: &str, at: usize) -> ControlFlow<()>;

    /// A brace comment of the main line (without its braces), after the moves read.
    fn comment(&mut self, _text: &[u8]) {}
}

/// Read the main line of a game's movetext (`text[start..]`) as python-chess reads it,
/// handing each move to `visitor`. Returns what python-chess would skip silently (an
/// unreadable run of text, an unclosed comment or variation), where it stands.
pub fn read_main_line(
    text: &[u8],
    start: usize,
    visitor: &mut dyn MainLine,
) -> Option<MovetextError> {
    let mut ply: u32 = 0;
    let mut depth: u32 = 0;
    let mut open_at = 0;
    let mut i = start;
    let mut line_start = true;
    let n = text.len();
    while i < n {
        let c = text[i];
        if line_start && (c == b'%' || c == b';') {
            i = line_end(text, i);
            continue;
        }
        line_start = false;
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => i += 1,
            b'{' => match memchr(b'}', &text[i + 1..]) {
                Some(j) => {
                    if depth == 0 {
                        visitor.comment(&text[i + 1..i + 1 + j]);
                    }
                    i += j + 2;
                }
                None => {
                    return Some(MovetextError {
                        ply: ply + 1,
                        message: "a comment opened with '{' is never closed: \
                                  the rest of the game cannot be read"
                            .to_owned(),
                        at: i,
                    });
                }
            },
            b';' => i = line_end(text, i),
            _ => {
                // a run: up to whitespace, a comment or the end
                let mut j = i;
                while j < n && !text[j].is_ascii_whitespace() && text[j] != b'{' && text[j] != b';'
                {
                    j += 1;
                }
                let run = &text[i..j];
                if depth == 0 && !good_run(run) {
                    return Some(MovetextError {
                        ply: ply + 1,
                        message: format!("unreadable move text {}", py_repr(&decode(run))),
                        at: i,
                    });
                }
                let mut k = 0;
                while k < run.len() {
                    let Some((tok, len)) = movetext_token(&run[k..]) else {
                        k += 1;
                        continue;
                    };
                    match tok {
                        // python-chess opens no variation before the first move
                        Token::Open if depth > 0 || ply > 0 => {
                            if depth == 0 {
                                open_at = i + k;
                            }
                            depth += 1;
                        }
                        Token::Close => depth = depth.saturating_sub(1),
                        Token::Move if depth == 0 => {
                            let san = std::str::from_utf8(&run[k..k + len]).unwrap_or("");
                            ply += 1;
                            if visitor.san(san, i + k).is_break() {
                                return None;
                            }
                        }
                        _ => {}
                    }
                    k += len;
                }
                i = j;
            }
        }
    }
    (depth > 0).then(|| MovetextError {
        ply: ply + 1,
        message: "a variation opened with '(' is never closed: \
                  the main line after it cannot be read"
            .to_owned(),
        at: open_at,
    })
}

/// Python's `repr` of a string, as remis's messages have always shown text.
pub fn py_repr(s: &str) -> String {
    if s.contains('\'') && !s.contains('"') {
        format!("\"{s}\"")
    } else {
        format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Move,
    Open,
    Close,
    Other,
}

/// Null moves and castling as python-chess's movetext pattern spells them, the
/// longer spelling first where one is a prefix of another.
const NULL_AND_CASTLING: [&[u8]; 8] = [
    b"--", b"Z0", b"0000", b"@@@@", b"O-O-O", b"O-O", b"0-0-0", b"0-0",
];

/// The token python-chess's movetext pattern matches at the start of `s`, if any.
fn movetext_token(s: &[u8]) -> Option<(Token, usize)> {
    // (each alternative is tried only where the first byte can start it)
    let c = s[0];
    if may_start_san(c)
        && let Some(n) = san_like(s)
    {
        return Some((Token::Move, n));
    }
    if matches!(c, b'-' | b'Z' | b'0' | b'@' | b'O') {
        for lit in NULL_AND_CASTLING {
            if s.starts_with(lit) {
                return Some((Token::Move, lit.len()));
            }
        }
    }
    if matches!(c, b'P' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'@')
        && let Some(n) = drop_like(s)
    {
        return Some((Token::Move, n));
    }
    match c {
        b'(' => return Some((Token::Open, 1)),
        b')' => return Some((Token::Close, 1)),
        b'$' => {
            let d = s[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if d > 0 {
                return Some((Token::Other, 1 + d));
            }
        }
        b'*' => return Some((Token::Other, 1)),
        b'?' | b'!' => {
            let n = if matches!(s.get(1), Some(b'?' | b'!')) {
                2
            } else {
                1
            };
            return Some((Token::Other, n));
        }
        _ => {}
    }
    if matches!(c, b'0' | b'1') {
        for lit in [&b"1-0"[..], b"0-1", b"1/2-1/2"] {
            if s.starts_with(lit) {
                return Some((Token::Other, lit.len()));
            }
        }
    }
    None
}

/// Whether a SAN-like token (see [`san_like`]) can start with `c`: a piece, a file, a
/// rank, a separator.
#[inline]
fn may_start_san(c: u8) -> bool {
    matches!(c, b'N' | b'B' | b'K' | b'R' | b'Q' | b'a'..=b'h' | b'1'..=b'8' | b'-' | b'x')
}

/// `[NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?` at the start of `s`, as a
/// backtracking regular expression matches it: the length of the match.
fn san_like(s: &[u8]) -> Option<usize> {
    let piece = |c: Option<&u8>| matches!(c, Some(b'N' | b'B' | b'K' | b'R' | b'Q'));
    let file = |c: Option<&u8>| matches!(c, Some(b'a'..=b'h'));
    let rank = |c: Option<&u8>| matches!(c, Some(b'1'..=b'8'));
    for p in [true, false] {
        if p && !piece(s.first()) {
            continue;
        }
        let i0 = usize::from(p);
        for f in [true, false] {
            if f && !file(s.get(i0)) {
                continue;
            }
            let i1 = i0 + usize::from(f);
            for r in [true, false] {
                if r && !rank(s.get(i1)) {
                    continue;
                }
                let i2 = i1 + usize::from(r);
                for sep in [true, false] {
                    if sep && !matches!(s.get(i2), Some(b'-' | b'x')) {
                        continue;
                    }
                    let i3 = i2 + usize::from(sep);
                    if file(s.get(i3)) && rank(s.get(i3 + 1)) {
                        let mut end = i3 + 2;
                        let promo = |c: Option<&u8>| {
                            matches!(
                                c,
                                Some(
                                    b'n' | b'b'
                                        | b'r'
                                        | b'q'
                                        | b'k'
                                        | b'N'
                                        | b'B'
                                        | b'R'
                                        | b'Q'
                                        | b'K'
                                )
                            )
                        };
                        if s.get(end) == Some(&b'=') && promo(s.get(end + 1)) {
                            end += 2;
                        } else if promo(s.get(end)) {
                            end += 1;
                        }
                        return Some(end);
                    }
                }
            }
        }
    }
    None
}

/// `[PNBRQK]?@[a-h][1-8]`: a drop (no move in chess; python-chess hands it on as one).
fn drop_like(s: &[u8]) -> Option<usize> {
    let i = usize::from(matches!(
        s.first(),
        Some(b'P' | b'N' | b'B' | b'R' | b'Q' | b'K')
    ));
    (s.get(i) == Some(&b'@')
        && matches!(s.get(i + 1), Some(b'a'..=b'h'))
        && matches!(s.get(i + 2), Some(b'1'..=b'8')))
    .then_some(i + 3)
}

/// Whether python-chess reads every character of a whitespace-free run: moves (with
/// check signs), results, move numbers, NAGs, brackets, `!?`, `e.p.`; each token taken
/// as the first alternative that matches, as remis's atomic pattern does.
fn good_run(run: &[u8]) -> bool {
    let mut k = 0;
    while k < run.len() {
        let s = &run[k..];
        let n = good_token(s);
        if n == 0 {
            return false;
        }
        k += n;
    }
    true
}

fn good_token(s: &[u8]) -> usize {
    let check = |n: usize| n + usize::from(matches!(s.get(n), Some(b'+' | b'#')));
    // (each alternative is tried only where the first byte can start it)
    let c = s[0];
    if may_start_san(c)
        && let Some(n) = san_like(s)
    {
        return check(n);
    }
    if matches!(c, b'P' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'@')
        && let Some(n) = drop_like(s)
    {
        return check(n);
    }
    if matches!(c, b'-' | b'Z' | b'0' | b'@' | b'O') {
        for lit in NULL_AND_CASTLING {
            if s.starts_with(lit) {
                return check(lit.len());
            }
        }
    }
    if matches!(c, b'0' | b'1') {
        for lit in [&b"1-0"[..], b"0-1", b"1/2-1/2"] {
            if s.starts_with(lit) {
                return lit.len();
            }
        }
    }
    let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 {
        return digits + s[digits..].iter().take_while(|c| **c == b'.').count();
    }
    match c {
        b'*' | b'(' | b')' => 1,
        b'$' => {
            let d = s[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if d > 0 { 1 + d } else { 0 }
        }
        b'?' | b'!' => {
            if matches!(s.get(1), Some(b'?' | b'!')) {
                2
            } else {
                1
            }
        }
        _ if s.starts_with(b"e.p.") => 4,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(data: &[u8]) -> Vec<GameText> {
        Splitter::new(data, 0, None, 1)
            .map(Result::unwrap)
            .collect()
    }

    struct Sans(Vec<String>);

    impl MainLine for Sans {
        fn san(&mut self, san: &str, _at: usize) -> ControlFlow<()> {
            self.0.push(san.to_owned());
            ControlFlow::Continue(())
        }
    }

    fn main_line(text: &str) -> (Vec<String>, Option<MovetextError>) {
        let (_, start) = read_tags(text.as_bytes());
        let mut v = Sans(Vec::new());
        let e = read_main_line(text.as_bytes(), start, &mut v);
        (v.0, e)
    }

    #[test]
    fn cuts_games_with_offsets() {
        let data = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let g = games(data);
        assert_eq!(
            g.iter().map(|g| (g.index, g.offset)).collect::<Vec<_>>(),
            vec![(1, 0), (2, 22)]
        );
        let bad = b"1. e4 {open\n\n[Event \"b\"]\n\n1. d4 *\n";
        let g = games(bad);
        assert_eq!(g.len(), 2);
        assert!(g[0].unclosed_comment);
        let ranged: Vec<_> = Splitter::new(&data[22..], 22, Some(43), 1)
            .map(Result::unwrap)
            .collect();
        assert_eq!(ranged.len(), 1);
        assert_eq!(ranged[0].offset, 22);
    }

    #[test]
    fn a_tag_block_without_moves_is_a_game_of_its_own() {
        let data =
            b"[Event \"c\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n\n[Event \"d\"]\n\n1. c4 *\n";
        let g = games(data);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tags_only, Some(50));
        // a blank line between the tags of one game is no new game
        let one = b"[Event \"a\"]\n\n[Date \"2017\"]\n\n1. e4 *\n";
        assert_eq!(games(one).len(), 1);
    }

    #[test]
    fn reads_tags_and_the_main_line() {
        let text = "\u{feff}[Event \"x\"]\n[White \"K\u{e1}sp\"]\n\n\n1. e4 {a [%clk 0:01]} e5 2. Nf3+ $1 (2. d4?!) Nc6 1-0\n";
        let (tags, _) = read_tags(text.as_bytes());
        assert_eq!(tags[1], ("White".into(), "K\u{e1}sp".into()));
        let (sans, err) = main_line(text);
        assert_eq!(sans, vec!["e4", "e5", "Nf3", "Nc6"]);
        assert!(err.is_none());
    }

    #[test]
    fn reports_what_python_chess_skips() {
        let (sans, err) = main_line("1. e4 e5 2. Qxx7 Nc6 *");
        assert_eq!(sans, vec!["e4", "e5"]);
        let err = err.unwrap();
        assert_eq!(
            (err.ply, err.message.as_str(), err.at),
            (3, "unreadable move text 'Qxx7'", 12)
        );
        let (_, err) = main_line("1. e4 e5 2. Nf3, Nc6 *");
        assert_eq!(err.unwrap().message, "unreadable move text 'Nf3,'");
        let (sans, err) = main_line("1. e4 (1. d4 ((( e5 2. Nf3 *");
        assert_eq!(sans, vec!["e4"]);
        let err = err.unwrap();
        assert_eq!((err.ply, err.at), (2, 6));
        let (_, err) = main_line("1. e4 {never closed e5");
        assert_eq!(err.unwrap().ply, 2);
        let (sans, _) = main_line("1.e4 e5 2.O-O-O e.p. 0-0 1/2-1/2");
        assert_eq!(sans, vec!["e4", "e5", "O-O-O", "0-0"]);
    }

    #[test]
    fn latin1_lines() {
        let text = b"[White \"Kasparov, G\xe1ry\"]\n\n1. e4 *\n";
        let (tags, _) = read_tags(text);
        assert_eq!(tags[0].1, "Kasparov, G\u{e1}ry");
    }
}
