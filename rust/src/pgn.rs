//! Streaming PGN reading: games cut out of a byte stream with their byte offsets, tags
//! read, and the main line handed to a visitor token by token, never the whole file (nor
//! a whole game's moves) in memory.
//!
//! Each game is cut out first (tags, then movetext up to the blank line that ends it) and
//! read on its own, so a broken game cannot swallow the next one. The movetext is read
//! as python-chess reads it (the same tokens, the same leniency), and what python-chess
//! would skip without a word (`Qxx7`, `e4,`), an unclosed comment or variation, and a
//! tag block without moves are reported where they stand. Lines that are not UTF-8 are
//! read as Latin-1, as real files (old `ChessBase` exports) need.

use std::io::{self, BufRead};
use std::ops::ControlFlow;

use memchr::memchr;

/// Largest game text read (bytes); a longer one is reported and skipped, so that one
/// damaged file cannot make the reader hold gigabytes.
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// Largest text buffer a [`Splitter`] keeps for the next game.
const SPARE_BYTES: usize = 64 << 10;

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

/// A UTF-8 byte-order mark: an editor's mark at the start of a file, found before any
/// game once files are concatenated (`cat a.pgn b.pgn`).
const BOM: &[u8] = b"\xef\xbb\xbf";

/// What one line does to the game being cut out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// the game's first line
    Start,
    /// a line of the game
    Take,
    /// a blank line outside the game's text (before it, between its tag blocks)
    Skip,
    /// the game ended just before this line, which begins the next one
    EndBefore,
    /// the game ends with this blank line
    EndAfter,
}

/// Where the game being cut out stands, line after line.
#[derive(Debug, Default)]
struct Cut {
    /// a line of the game has been read
    lines: bool,
    in_movetext: bool,
    /// a `{` comment is open at the end of the last line
    in_comment: bool,
    prev_blank: bool,
    /// a blank line followed the game's tags
    blank_after_tags: bool,
    /// the names of the tags read once the game's text is dropped for its length, each
    /// followed by a line feed (no name holds one); until then they are read off the
    /// text, only when a second tag block asks for them
    names: Vec<u8>,
    eager: bool,
    /// a `{` never closed: the game ended at the tag pair after a blank line
    unclosed_comment: bool,
    /// a tag block with no moves, ended by another one at this line
    tags_only: bool,
}

impl Cut {
    /// What `line` (with its line end) does to the game whose lines so far are `text`.
    fn step(&mut self, line: &[u8], text: &[u8]) -> Step {
        let stripped = trim(line);
        if self.in_comment && self.prev_blank && is_tag_line(stripped) {
            // a tag pair after a blank line inside a comment: the comment was never
            // closed; end the broken game here instead of swallowing the file
            self.unclosed_comment = true;
            return Step::EndBefore;
        }
        self.prev_blank = stripped.is_empty();
        let step = if self.in_comment {
            Step::Take
        } else if stripped.is_empty() {
            if self.in_movetext {
                return Step::EndAfter;
            }
            self.blank_after_tags |= self.lines;
            return Step::Skip;
        } else if stripped.starts_with(b"[") && self.in_movetext {
            // a tag line right after movetext without a blank line: a new game
            return Step::EndBefore;
        } else if self.repeats_a_tag(stripped, text) {
            // a second tag block whose tag repeats one of the first: the first block
            // had no moves, and its tags (a FEN) must not merge into this game
            self.tags_only = true;
            return Step::EndBefore;
        } else {
            if !stripped.starts_with(b"[") && !stripped.starts_with(b"%") {
                self.in_movetext = true;
            } else if self.eager
                && let Some(name) = tag_name(stripped)
            {
                self.add_name(name);
            }
            if self.lines { Step::Take } else { Step::Start }
        };
        self.lines = true;
        if self.in_movetext || self.in_comment {
            self.in_comment = comment_state(line, self.in_comment);
        }
        step
    }

    /// Whether `stripped`, after the tag block and a blank line, names a tag read (in
    /// `text`, the game's lines so far, or kept apart).
    fn repeats_a_tag(&self, stripped: &[u8], text: &[u8]) -> bool {
        !self.in_movetext
            && self.blank_after_tags
            && tag_name(stripped).is_some_and(|name| {
                self.names.split(|&c| c == b'\n').any(|t| t == name)
                    || tag_names(text).any(|t| t == name)
            })
    }

    fn add_name(&mut self, name: &[u8]) {
        self.names.extend_from_slice(name);
        self.names.push(b'\n');
    }

    /// The state before a game's first line, the names' buffer kept.
    fn reset(&mut self) {
        let mut names = std::mem::take(&mut self.names);
        names.clear();
        *self = Cut {
            names,
            ..Cut::default()
        };
    }

    /// Whether a byte-order mark at the start of `line` stands before a game: at the
    /// start of one, or before the tag that begins the next.
    fn bom_starts_game(&self, line: &[u8]) -> bool {
        line.starts_with(BOM)
            && !self.in_comment
            && (!self.lines || trim(&line[BOM.len()..]).starts_with(b"["))
    }
}

/// Cuts a byte stream into games. `offset` is the stream's position in its file; games
/// that start at or after `end` are not returned (workers split a file by byte ranges).
/// Lines end at LF, CR LF or a lone CR, as Python's universal newlines read them.
pub struct Splitter<R> {
    src: R,
    pos: u64,
    end: Option<u64>,
    index: u64,
    /// the line read ahead: it begins the next game
    pending: Option<(u64, Vec<u8>)>,
    done: bool,
    line: Vec<u8>,
    /// longest game text kept ([`MAX_GAME_BYTES`] but in tests)
    max_game: usize,
    /// the state of the game being cut out, and a text buffer handed back by the caller
    /// (see [`Splitter::recycle`]): kept, so that a game costs no allocation
    cut: Cut,
    spare: Vec<u8>,
}

impl<R: BufRead> Splitter<R> {
    pub fn new(src: R, offset: u64, end: Option<u64>, first_index: u64) -> Self {
        Splitter {
            src,
            pos: offset,
            end,
            index: first_index,
            pending: None,
            done: false,
            line: Vec::new(),
            max_game: MAX_GAME_BYTES,
            cut: Cut::default(),
            spare: Vec::new(),
        }
    }

    /// The same splitter with another limit on a game's length (tests use a small one).
    #[must_use]
    pub fn with_max_game(mut self, bytes: usize) -> Self {
        self.max_game = bytes;
        self
    }

    /// Take back the text of a game returned, once read, for the next game to fill.
    pub fn recycle(&mut self, mut text: Vec<u8>) {
        // (the text of a long game is let go: the buffer would hold its size for good)
        if text.capacity() <= SPARE_BYTES {
            text.clear();
            self.spare = text;
        }
    }

    /// Bytes consumed so far (the offset of the next unread line).
    pub fn consumed(&self) -> u64 {
        self.pos
    }

    /// The next line and where it starts, or None at the end. A line longer than a
    /// game may be is cut short (its game is too long anyway): the reader never holds
    /// more than that, whatever the input.
    fn next_line(&mut self) -> io::Result<Option<(u64, Vec<u8>, usize)>> {
        if let Some((start, line)) = self.pending.take() {
            let len = line.len();
            return Ok(Some((start, line, len)));
        }
        self.line.clear();
        let start = self.pos;
        let len = read_line(&mut self.src, &mut self.line, self.max_game + 1)?;
        if len == 0 {
            return Ok(None);
        }
        self.pos += len as u64;
        Ok(Some((start, std::mem::take(&mut self.line), len)))
    }

    /// The next game, or None at the end. An I/O error (a damaged compressed stream) is
    /// returned after every game read whole before it.
    ///
    /// # Errors
    ///
    /// The reader's I/O error (a damaged compressed stream), after the games before it.
    ///
    /// ```
    /// use _core::pgn::Splitter;
    ///
    /// let pgn = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    /// let mut games = Splitter::new(&pgn[..], 0, None, 1);
    /// let first = games.next_game().unwrap().unwrap();
    /// let second = games.next_game().unwrap().unwrap();
    /// assert_eq!((first.index, first.offset), (1, 0));
    /// assert_eq!((second.index, second.offset), (2, 25));
    /// assert!(second.text.starts_with(b"[Event \"b\"]"));
    /// assert!(games.next_game().unwrap().is_none());
    /// ```
    pub fn next_game(&mut self) -> io::Result<Option<GameText>> {
        if self.done {
            return Ok(None);
        }
        let text = if self.spare.capacity() > 0 {
            std::mem::take(&mut self.spare)
        } else {
            // the size of most games' text: it seldom grows
            Vec::with_capacity(2048)
        };
        let g = GameText {
            index: self.index,
            text,
            ..GameText::default()
        };
        let mut cut = std::mem::take(&mut self.cut);
        cut.reset();
        let out = self.cut_game(g, &mut cut);
        self.cut = cut;
        out
    }

    /// [`Splitter::next_game`] with the game begun (`g`) and its state (`cut`).
    fn cut_game(&mut self, mut g: GameText, cut: &mut Cut) -> io::Result<Option<GameText>> {
        loop {
            // A read error (a damaged compressed stream) drops the game it cut short:
            // its record is incomplete, and a ruling on it would be wrong.
            let read = self.next_line().inspect_err(|_| self.done = true)?;
            let Some((mut start, mut line, mut len)) = read else {
                self.done = true;
                return Ok(self.at_end(g, cut));
            };
            if cut.bom_starts_game(&line) {
                line.drain(..BOM.len());
                start += BOM.len() as u64;
                len -= BOM.len();
            }
            match cut.step(&line, &g.text) {
                Step::Skip => {}
                Step::EndAfter => {
                    self.line = line;
                    if self.end.is_some_and(|e| self.pos >= e) {
                        self.done = true;
                    }
                    return Ok(Some(self.finish(g, cut)));
                }
                Step::EndBefore => {
                    if cut.tags_only {
                        g.tags_only = Some(start);
                    }
                    self.pending = Some((start, line));
                    return Ok(Some(self.finish(g, cut)));
                }
                step @ (Step::Start | Step::Take) => {
                    if step == Step::Start {
                        g.offset = start;
                        if self.end.is_some_and(|e| start >= e) {
                            self.done = true;
                            return Ok(None);
                        }
                    }
                    self.keep(&mut g, cut, &line, len);
                }
            }
            // the line's buffer serves the next line (one allocation a stream, not one
            // a line)
            self.line = line;
        }
    }

    /// Add a line (`len` bytes long in the stream) to the game's text, or mark the game
    /// too long and drop its text.
    fn keep(&self, g: &mut GameText, cut: &mut Cut, line: &[u8], len: usize) {
        if g.text.len() + len > self.max_game {
            if !g.too_long {
                // the names of the tags read go with the text: kept apart from now on
                for name in tag_names(&g.text).chain(tag_name(trim(line))) {
                    cut.add_name(name);
                }
                cut.eager = true;
            }
            g.too_long = true;
            g.text = Vec::new();
        }
        if !g.too_long {
            g.text.extend_from_slice(line);
        }
    }

    /// The last game, at the end of the stream: every game begun is returned, a text
    /// dropped for its length too (the game is reported, never lost).
    fn at_end(&mut self, mut g: GameText, cut: &Cut) -> Option<GameText> {
        if !cut.lines || !(g.too_long || has_text(&g.text)) {
            return None;
        }
        g.unclosed_comment |= cut.in_comment;
        Some(self.finish(g, cut))
    }

    fn finish(&mut self, mut g: GameText, cut: &Cut) -> GameText {
        g.unclosed_comment |= cut.unclosed_comment;
        self.index += 1;
        g
    }
}

/// Read one line into `buf`, up to and with its end (LF, CR LF or a lone CR): the bytes
/// consumed, 0 at the end of the stream. At most `keep` bytes are put into `buf`; the
/// rest of a longer line is consumed and counted, not kept.
fn read_line<R: BufRead>(src: &mut R, buf: &mut Vec<u8>, keep: usize) -> io::Result<usize> {
    let mut total = 0;
    let mut cr = false;
    loop {
        let chunk = match src.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if cr {
            // a CR ended the line: an LF right after it belongs to it
            if chunk.first() == Some(&b'\n') {
                if buf.len() < keep {
                    buf.push(b'\n');
                }
                src.consume(1);
                total += 1;
            }
            return Ok(total);
        }
        if chunk.is_empty() {
            return Ok(total);
        }
        let (n, ended) = match memchr::memchr2(b'\n', b'\r', chunk) {
            Some(i) => {
                cr = chunk[i] == b'\r';
                (i + 1, !cr)
            }
            None => (chunk.len(), false),
        };
        let room = keep.saturating_sub(buf.len()).min(n);
        buf.extend_from_slice(&chunk[..room]);
        src.consume(n);
        total += n;
        if ended {
            return Ok(total);
        }
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

/// The names of the tags of a game's lines `text` (before its movetext: its tag
/// lines, and `%` lines, which name none).
fn tag_names(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < text.len() {
            let end = line_end(text, at);
            let line = &text[at..end];
            at = end;
            if let Some(name) = tag_name(trim(line)) {
                return Some(name);
            }
        }
        None
    })
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
        .take_while(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-')
        })
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
///
/// ```
/// assert_eq!(_core::pgn::decode("Café".as_bytes()), "Café");
/// assert_eq!(_core::pgn::decode(b"Caf\xe9"), "Café"); // Latin-1
/// ```
#[must_use]
pub fn decode(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => raw.iter().map(|&b| b as char).collect(),
    }
}

/// The tags of a game, in order (a repeated tag keeps its first place, its last value),
/// and the byte index where the movetext starts.
///
/// ```
/// let text = b"[White \"Tal\"]\n[Black \"Botvinnik\"]\n\n1. e4 *\n";
/// let (tags, start) = _core::pgn::read_tags(text);
/// assert_eq!(tags[0], ("White".to_string(), "Tal".to_string()));
/// assert_eq!(tags.len(), 2);
/// assert!(text[start..].starts_with(b"1. e4"));
/// ```
#[must_use]
pub fn read_tags(text: &[u8]) -> (Vec<(String, String)>, usize) {
    // (room for the tags of most games, which then grow it no more)
    let mut tags: Vec<(String, String)> = Vec::with_capacity(16);
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
            let (name, value) = decode_tag(line, name, value);
            match tags.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1 = value,
                None => tags.push((name.to_owned(), value)),
            }
        }
        at = end;
    }
    (tags, at)
}

/// A tag's name and value (parts of `line`, as [`parse_tag`] finds them) decoded as their
/// line is: UTF-8, or Latin-1 when the line is not UTF-8. The name is ASCII.
fn decode_tag<'a>(line: &'a [u8], name: &'a [u8], value: &[u8]) -> (&'a str, String) {
    let at = |part: &[u8]| part.as_ptr() as usize - line.as_ptr() as usize;
    let (n, v) = (at(name), at(value));
    match std::str::from_utf8(line) {
        // (the parts end at ASCII bytes: their bounds are those of characters)
        Ok(text) => (
            &text[n..n + name.len()],
            text[v..v + value.len()].to_owned(),
        ),
        Err(_) => (
            std::str::from_utf8(name).unwrap_or_default(),
            value.iter().map(|&b| b as char).collect(),
        ),
    }
}

/// Where the line at `at` ends, after its LF, CR LF or lone CR (or at the end).
fn line_end(text: &[u8], at: usize) -> usize {
    match memchr::memchr2(b'\n', b'\r', &text[at..]) {
        None => text.len(),
        Some(i) if text[at + i] == b'\r' && text.get(at + i + 1) == Some(&b'\n') => at + i + 2,
        Some(i) => at + i + 1,
    }
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
    fn san(&mut self, san: &[u8], at: usize) -> ControlFlow<()>;

    /// A brace comment of the main line (without its braces), after the moves read.
    fn comment(&mut self, _text: &[u8]) {}
}

/// Read the main line of a game's movetext (`text[start..]`) as python-chess reads it,
/// handing each move to `visitor`. Returns what python-chess would skip silently (an
/// unreadable run of text, an unclosed comment or variation), where it stands.
///
/// ```
/// use std::ops::ControlFlow;
/// use _core::pgn::{MainLine, read_main_line};
///
/// struct Moves(Vec<String>);
/// impl MainLine for Moves {
///     fn san(&mut self, san: &[u8], _at: usize) -> ControlFlow<()> {
///         self.0.push(String::from_utf8_lossy(san).into_owned());
///         ControlFlow::Continue(())
///     }
/// }
/// let mut moves = Moves(Vec::new());
/// // variations, comments, NAGs and check signs are no moves of the main line
/// let error = read_main_line(b"1. e4 {best} (1. d4) e5 $1 2. Qh5+ *", 0, &mut moves);
/// assert!(error.is_none());
/// assert_eq!(moves.0, ["e4", "e5", "Qh5"]);
/// assert!(read_main_line(b"1. e4 {never closed", 0, &mut moves).is_some());
/// ```
pub fn read_main_line(
    text: &[u8],
    start: usize,
    visitor: &mut dyn MainLine,
) -> Option<MovetextError> {
    let mut ply: u32 = 0;
    let mut depth: u32 = 0;
    let mut open_at = 0;
    // `(` before the first move, which python-chess reads as no variation
    let mut unopened: u32 = 0;
    let mut i = start;
    let mut line_start = true;
    while i < text.len() {
        let c = text[i];
        if line_start && (c == b'%' || c == b';') {
            i = line_end(text, i);
            continue;
        }
        line_start = false;
        match c {
            b'\n' | b'\r' => (line_start, i) = (true, i + 1),
            b' ' | b'\t' | b'\x0b' | b'\x0c' => i += 1,
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
                let j = run_end(text, i);
                let run = &text[i..j];
                // the usual runs (a move number, a move or both) read at once, as below
                if let Some(quick) = quick_run(run) {
                    if let Some((at, len)) = quick.filter(|_| depth == 0) {
                        ply += 1;
                        if visitor.san(&run[at..at + len], i + at).is_break() {
                            return None;
                        }
                    }
                    i = j;
                    continue;
                }
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
                        Token::Open if depth == 0 && ply == 0 => unopened += 1,
                        Token::Open => {
                            if depth == 0 {
                                open_at = i + k;
                            }
                            depth += 1;
                        }
                        Token::Close if depth > 0 => depth -= 1,
                        Token::Close if unopened > 0 => unopened -= 1,
                        Token::Close => {
                            // the `(` of a variation is missing: what stands before
                            // this `)` may be the variation, not the main line
                            return Some(MovetextError {
                                ply: ply + 1,
                                message: "a ')' closes no variation: the main line \
                                          cannot be told from a variation here"
                                    .to_owned(),
                                at: i + k,
                            });
                        }
                        Token::Move if depth == 0 => {
                            ply += 1;
                            if visitor.san(&run[k..k + len], i + k).is_break() {
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

/// Where the run at `i` ends: at whitespace, a comment or the end.
fn run_end(text: &[u8], i: usize) -> usize {
    text[i..]
        .iter()
        .position(|&c| c.is_ascii_whitespace() || c == b'{' || c == b';')
        .map_or(text.len(), |k| i + k)
}

/// A run that is a move number (`12.`, `12...`, `12`), a move alone (with its check
/// sign) or both (`12.Nf3+`), as its check and its tokens read it: the move's place and
/// length, if there is one. None for any other run.
fn quick_run(run: &[u8]) -> Option<Option<(usize, usize)>> {
    // (four zeros would be a null move; a dot ends the number's reading)
    let digits = run.iter().take_while(|c| c.is_ascii_digit()).count();
    let dots = run[digits..].iter().take_while(|&&c| c == b'.').count();
    let at = digits + dots;
    if at == run.len() && (1..=3).contains(&digits) {
        return Some(None);
    }
    if at > 0 && (digits == 0 || digits > 3 || dots == 0) {
        return None;
    }
    let rest = &run[at..];
    if !may_start_san(rest[0]) {
        return None;
    }
    let n = san_like(rest)?;
    let whole = n == rest.len() || n + 1 == rest.len() && matches!(rest[n], b'+' | b'#');
    whole.then_some(Some((at, n)))
}

/// Python's `repr` of a string, as remis's messages have always shown text.
#[must_use]
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
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let file = |i: usize| matches!(at(i), b'a'..=b'h');
    let rank = |i: usize| matches!(at(i), b'1'..=b'8');
    let sep = |i: usize| matches!(at(i), b'-' | b'x');
    let square = |i: usize| file(i) && rank(i + 1);
    // The regular expression's readings in the order it tries them (each optional part
    // present first): the piece is present exactly when the first byte is one, as no
    // reading without it can start with a piece letter; after a file, neither a rank
    // nor a separator can stand in its place.
    let i = usize::from(matches!(at(0), b'N' | b'B' | b'K' | b'R' | b'Q'));
    let to = if file(i) {
        if rank(i + 1) && sep(i + 2) && square(i + 3) {
            i + 3
        } else if rank(i + 1) && square(i + 2) || sep(i + 1) && square(i + 2) {
            i + 2
        } else if square(i + 1) {
            i + 1
        } else if square(i) {
            i
        } else {
            return None;
        }
    } else if rank(i) && sep(i + 1) && square(i + 2) {
        i + 2
    } else if (rank(i) || sep(i)) && square(i + 1) {
        i + 1
    } else {
        return None;
    };
    let promo = |i: usize| {
        matches!(
            at(i),
            b'n' | b'b' | b'r' | b'q' | b'k' | b'N' | b'B' | b'R' | b'Q' | b'K'
        )
    };
    let end = to + 2;
    Some(if at(end) == b'=' && promo(end + 1) {
        end + 2
    } else if promo(end) {
        end + 1
    } else {
        end
    })
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

    /// The pattern as the nested loops of a backtracking matcher (the reference for
    /// [`san_like`]).
    fn san_like_reference(s: &[u8]) -> Option<usize> {
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

    #[test]
    fn san_like_reads_as_the_backtracking_matcher() {
        const ALPHABET: &[u8] = b"NBKRQaeh18-x=qb+#";
        let mut s = Vec::new();
        for len in 1..=5u32 {
            for mut n in 0..(ALPHABET.len() as u64).pow(len) {
                s.clear();
                for _ in 0..len {
                    s.push(ALPHABET[(n % ALPHABET.len() as u64) as usize]);
                    n /= ALPHABET.len() as u64;
                }
                assert_eq!(
                    san_like(&s),
                    san_like_reference(&s),
                    "{:?}",
                    String::from_utf8_lossy(&s)
                );
            }
        }
    }

    fn games(data: &[u8]) -> Vec<GameText> {
        Splitter::new(data, 0, None, 1)
            .map(Result::unwrap)
            .collect()
    }

    struct Sans(Vec<String>);

    impl MainLine for Sans {
        fn san(&mut self, san: &[u8], _at: usize) -> ControlFlow<()> {
            self.0.push(String::from_utf8_lossy(san).into_owned());
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

    fn small(data: &[u8], max: usize) -> Vec<GameText> {
        Splitter::new(data, 0, None, 1)
            .with_max_game(max)
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn a_game_too_long_is_reported_wherever_it_stands() {
        let good = "[Event \"g\"]\n\n1. e4 *\n";
        let long = format!("[Event \"long\"]\n\n1. e4 {{{}}} *\n", "x\n".repeat(200));
        for at in 0..3 {
            for blank_after_last in [false, true] {
                let mut games = vec![good.to_owned(); 3];
                games[at] = long.clone();
                let mut data = games.join("\n");
                if blank_after_last {
                    data.push('\n');
                }
                let g = small(data.as_bytes(), 300);
                assert_eq!(
                    g.len(),
                    3,
                    "long game at {at}, blank after: {blank_after_last}"
                );
                let flags: Vec<bool> = g.iter().map(|g| g.too_long).collect();
                assert_eq!(flags, (0..3).map(|i| i == at).collect::<Vec<_>>());
                assert!(g[at].text.is_empty());
                assert_eq!(g.iter().map(|g| g.index).collect::<Vec<_>>(), vec![1, 2, 3]);
            }
        }
    }

    #[test]
    fn a_tag_repeated_after_a_dropped_text_still_starts_the_next_game() {
        // the second tag, too long, drops the game's text: its name is still known
        let pgn =
            b"[Event \"a\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n\n[FEN \"y\"]\n\n1. e4 *\n";
        let g = small(pgn, 45);
        assert_eq!(g.len(), 2);
        assert!(g[0].too_long && g[0].tags_only == Some(50));
        assert!(g[1].text.starts_with(b"[FEN \"y\"]"));
    }

    #[test]
    fn a_line_without_end_is_not_held_whole() {
        let mut data = b"[Event \"a\"]\n\n1. e4 ".to_vec();
        data.extend(std::iter::repeat_n(b'x', 10_000));
        let mut sp = Splitter::new(&data[..], 0, None, 1).with_max_game(100);
        let g = sp.next_game().unwrap().unwrap();
        assert!(g.too_long && g.text.is_empty());
        assert!(sp.line.capacity() <= 4096);
        assert_eq!(sp.consumed(), data.len() as u64);
        assert!(sp.next_game().unwrap().is_none());
    }

    #[test]
    fn a_byte_order_mark_before_any_game_is_skipped() {
        let a = "\u{feff}[Event \"a\"]\n\n1. e4 *\n";
        let b = "\u{feff}[Event \"b\"]\n[FEN \"4k3/8/4K3/8/8/8/8/7Q w - - 0 1\"]\n\n1. Qh8# 1-0\n";
        for sep in ["\n", ""] {
            // `cat a.pgn b.pgn`, with and without a blank line between the games
            let data = format!("{a}{sep}{b}");
            let g = games(data.as_bytes());
            assert_eq!(g.len(), 2, "{data:?}");
            let second = &g[1];
            assert!(second.text.starts_with(b"[Event \"b\"]"));
            // the offset is the tag's: errors located in the text stay exact
            assert_eq!(second.offset as usize, data.rfind("[Event").unwrap());
            let (tags, _) = read_tags(&second.text);
            assert_eq!(tags.len(), 2);
            assert_eq!(g[0].offset, 3);
        }
        // a BOM inside a comment is the comment's
        let c = "1. e4 {a\n\u{feff}[not a tag} e5 *\n";
        assert_eq!(games(c.as_bytes())[0].text, c.as_bytes());
    }

    #[test]
    fn lines_may_end_with_a_lone_carriage_return() {
        let lf = "[Event \"a\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
                  [Event \"b\"]\n\n1. e4 ; rest\ne5 *\n";
        for end in ["\r", "\r\n"] {
            let data = lf.replace('\n', end);
            let g = games(data.as_bytes());
            assert_eq!(g.len(), 2, "{end:?}");
            assert_eq!(g[1].offset as usize, data.find("[Event \"b").unwrap());
            let (tags, _) = read_tags(&g[0].text);
            assert_eq!(tags[1], ("Result".into(), "0-1".into()));
            let text = std::str::from_utf8(&g[1].text).unwrap();
            assert_eq!(
                main_line(text),
                (vec!["e4".to_owned(), "e5".to_owned()], None)
            );
        }
        // a CR LF split between two reads of the stream is one line end
        let data = b"1. e4 *\r\n\r\n1. d4 *\r\n";
        let reader = io::BufReader::with_capacity(8, &data[..]);
        let g: Vec<_> = Splitter::new(reader, 0, None, 1)
            .map(Result::unwrap)
            .collect();
        assert_eq!(g.iter().map(|g| g.offset).collect::<Vec<_>>(), vec![0, 11]);
    }

    #[test]
    fn the_usual_runs_are_read_at_once() {
        assert_eq!(quick_run(b"12."), Some(None));
        assert_eq!(quick_run(b"12..."), Some(None));
        assert_eq!(quick_run(b"12.Nf3+"), Some(Some((3, 3))));
        assert_eq!(quick_run(b"exd8=Q#"), Some(Some((0, 6))));
        // a null move, a result, a castling, an annotation: read token by token
        for run in [
            &b"0000"[..],
            b"1-0",
            b"O-O",
            b"e4!",
            b"1.0-0",
            b".e4",
            b"1e4",
        ] {
            assert_eq!(quick_run(run), None, "{}", decode(run));
        }
        let (moves, error) = main_line("1.e4 e5 2.Nf3+ Nc6 3...a6 0000 *");
        assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6", "a6", "0000"]);
        assert!(error.is_none());
    }

    #[test]
    fn a_stray_closing_bracket_is_reported() {
        let (sans, err) = main_line("1. e4 e5 2. Nf3 Nc6) 3. Bb5 *");
        assert_eq!(sans, vec!["e4", "e5", "Nf3", "Nc6"]);
        let err = err.unwrap();
        assert_eq!((err.ply, err.at), (5, 19));
        assert!(err.message.starts_with("a ')' closes no variation"));
        // a variation closed, and a bracket python-chess opens no variation for
        let (sans, err) = main_line("( 1. e4 e5 ) 2. Nf3 (2. d4) Nc6 *");
        assert_eq!((sans.len(), err), (4, None));
    }

    #[test]
    fn the_steps_of_a_cut() {
        let mut cut = Cut::default();
        let steps: Vec<Step> = [
            "[Event \"a\"]\n",
            "\n",
            "1. e4 {open\n",
            "\n",
            "still} e5\n",
            "\n",
        ]
        .iter()
        .map(|l| cut.step(l.as_bytes(), b""))
        .collect();
        use Step::*;
        assert_eq!(steps, vec![Start, Skip, Take, Take, Take, EndAfter]);
        let mut cut = Cut::default();
        let fen = b"[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\r\n";
        for l in [&fen[..], b"\n"] {
            cut.step(l, b"");
        }
        // (the tags read are read off the game's text)
        assert_eq!(cut.step(b"[FEN \"x\"]\n", b"[Event \"a\"]\n"), Take);
        assert_eq!(cut.step(b"[FEN \"x\"]\n", fen), EndBefore);
        assert!(cut.tags_only);
        let mut cut = Cut::default();
        for l in ["1. e4 {open\n", "\n"] {
            cut.step(l.as_bytes(), b"");
        }
        assert_eq!(cut.step(b"[Event \"b\"]\n", b""), EndBefore);
        assert!(cut.unclosed_comment);
    }

    #[test]
    fn latin1_lines() {
        let text = b"[White \"Kasparov, G\xe1ry\"]\n\n1. e4 *\n";
        let (tags, _) = read_tags(text);
        assert_eq!(tags[0].1, "Kasparov, G\u{e1}ry");
    }
}

/// Properties of the reader on arbitrary and on generated input (proptest, a few
/// hundred cases each: `cargo test` runs them).
#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    struct Count(usize);

    impl MainLine for Count {
        fn san(&mut self, _san: &[u8], _at: usize) -> ControlFlow<()> {
            self.0 += 1;
            ControlFlow::Continue(())
        }
    }

    /// Bytes that look like PGN often enough to reach every branch of the reader.
    fn pgnish() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            Just(&b"[Event \"x\"]"[..]),
            Just(&b"[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]"[..]),
            Just(&b"1. e4 e5 2. Nf3"[..]),
            Just(&b"{"[..]),
            Just(&b"}"[..]),
            Just(&b"("[..]),
            Just(&b")"[..]),
            Just(&b";"[..]),
            Just(&b"%"[..]),
            Just(&b"\n"[..]),
            Just(&b"\r"[..]),
            Just(&b"\r\n"[..]),
            Just(&b"\n\n"[..]),
            Just(&b"\xef\xbb\xbf"[..]),
            Just(&b"1-0 *"[..]),
            Just(&b"\xff\xe1"[..]),
            Just(&b" "[..]),
        ];
        prop_oneof![
            prop::collection::vec(piece, 0..40).prop_map(|v| v.concat()),
            prop::collection::vec(any::<u8>(), 0..300),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// A run read at once (a move number, a move alone) reads as its tokens do:
        /// good, and the one move (or none) that the tokens give.
        #[test]
        fn a_run_read_at_once_reads_as_its_tokens(
            run in "[0-9.a-hNBRQKx=+#O-]{1,8}|[0-9]{1,5}\\.{0,3}|[01]{0,4}\\.{0,2}[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[QN])?[+#!?]?",
        ) {
            let run = run.as_bytes();
            let mut moves = Vec::new();
            let mut k = 0;
            while k < run.len() {
                match movetext_token(&run[k..]) {
                    Some((tok, len)) => {
                        moves.push((tok, k, len));
                        k += len;
                    }
                    None => k += 1,
                }
            }
            if let Some(quick) = quick_run(run) {
                prop_assert!(good_run(run));
                let quick: Vec<_> = quick.map(|(at, len)| (Token::Move, at, len)).into_iter().collect();
                prop_assert_eq!(moves, quick);
            }
        }

        /// Any input is read to its end without a panic; the games come in order,
        /// numbered from 1, each starting inside the input, none longer than allowed.
        #[test]
        fn any_input_is_read_whole(data in pgnish(), max in 8usize..200) {
            let mut sp = Splitter::new(&data[..], 0, None, 1).with_max_game(max);
            let mut last = None;
            let mut n = 0;
            while let Some(g) = sp.next_game().unwrap() {
                n += 1;
                prop_assert_eq!(g.index, n);
                prop_assert!((g.offset as usize) < data.len());
                prop_assert!(last.is_none_or(|o| g.offset > o));
                prop_assert!(g.text.len() <= max);
                prop_assert!(g.too_long || !g.text.is_empty());
                last = Some(g.offset);
                let (_, start) = read_tags(&g.text);
                prop_assert!(start <= g.text.len());
                if let Some(e) = read_main_line(&g.text, start, &mut Count(0)) {
                    prop_assert!(e.at <= g.text.len() && e.ply >= 1);
                }
            }
            prop_assert_eq!(sp.consumed(), data.len() as u64);
        }

        /// Games written out whole, with any line ends and byte-order marks, are read
        /// back one for one, with their tags and moves.
        #[test]
        fn games_written_are_read_back(
            games in prop::collection::vec((0u32..1000, 0usize..5, any::<bool>()), 1..8),
            end in prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
            blank_at_end in any::<bool>(),
        ) {
            let sans = ["e4", "e5", "Nf3", "Nc6", "Bb5"];
            let texts: Vec<String> = games
                .iter()
                .map(|(id, plies, bom)| {
                    let moves = sans[..*plies].join(" ");
                    format!(
                        "{}[Event \"{id}\"]{end}[Round \"1\"]{end}{end}{moves} *{end}",
                        if *bom { "\u{feff}" } else { "" }
                    )
                })
                .collect();
            let mut data = texts.join(end);
            if blank_at_end {
                data.push_str(end);
            }
            let read: Vec<GameText> = Splitter::new(data.as_bytes(), 0, None, 1)
                .map(Result::unwrap)
                .collect();
            prop_assert_eq!(read.len(), games.len());
            for (g, (id, plies, _)) in read.iter().zip(&games) {
                let (tags, start) = read_tags(&g.text);
                prop_assert_eq!(&tags[0], &("Event".to_owned(), id.to_string()));
                let mut count = Count(0);
                prop_assert!(read_main_line(&g.text, start, &mut count).is_none());
                prop_assert_eq!(count.0, *plies);
                prop_assert!(data.as_bytes()[g.offset as usize..].starts_with(b"[Event"));
            }
        }
    }
}
