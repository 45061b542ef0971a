//! The JSON line of `remis game --json` for a game with nothing to word: no automatic
//! end, no claim, no flag fall and no error. Most games of a collection are such, and
//! their line is written here, in the core, byte for byte as Python's `json` writes the
//! same object (`ensure_ascii=False`, the default separators), so that the words, which
//! only the other games need, stay in Python's templates.

use std::fmt::Write;

use crate::game::GameFacts;

/// The JSON line (ending in a newline) of a game with nothing to word, or `None` when
/// the game has an end, a claim, a flag fall or an error (Python words those). `file`
/// names the game's file first, as when several files are read at once.
pub fn plain_line(f: &GameFacts, file: Option<&str>) -> Option<String> {
    if f.end.is_some() || !f.claims.is_empty() || f.flag.is_some() || f.error.is_some() {
        return None;
    }
    let mut out = String::with_capacity(256);
    out.push('{');
    if let Some(file) = file {
        out.push_str("\"file\": ");
        string(&mut out, file);
        out.push_str(", ");
    }
    let _ = write!(out, "\"game\": {}, \"headers\": {{", f.index);
    for (i, (name, value)) in unique_tags(&f.headers).into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        string(&mut out, name);
        out.push_str(": ");
        string(&mut out, value);
    }
    out.push_str("}, \"variant\": ");
    string(&mut out, &f.variant);
    let _ = writeln!(
        out,
        ", \"plies\": {}, \"end\": null, \"claims\": [], \"error\": null}}",
        f.plies
    );
    Some(out)
}

/// The tags as a Python dict holds them: a name given twice keeps the place of its first
/// appearance and the value of its last.
fn unique_tags(tags: &[(String, String)]) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, &str)> = Vec::with_capacity(tags.len());
    for (name, value) in tags {
        match out.iter_mut().find(|(n, _)| n == name) {
            Some(seen) => seen.1 = value,
            None => out.push((name, value)),
        }
    }
    out
}

/// `s` as a JSON string, escaped as Python's `json` escapes without `ensure_ascii`:
/// the quote, the backslash and the control characters only.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Options, Ruler};
    use crate::pgn::Splitter;

    fn facts(pgn: &str) -> Vec<GameFacts> {
        let mut r = Ruler::new(Options::default());
        Splitter::new(pgn.as_bytes(), 0, None, 1)
            .map(|g| r.rule(&g.unwrap()))
            .collect()
    }

    #[test]
    fn a_plain_game_is_written_whole() {
        let f = facts("[Event \"a \\\"b\\\"\"]\n[White \"x\ty\"]\n[Event \"c\"]\n\n1. e4 e5 *\n");
        assert_eq!(
            plain_line(&f[0], Some("d/é.pgn")).unwrap(),
            "{\"file\": \"d/é.pgn\", \"game\": 1, \"headers\": {\"Event\": \"c\", \
             \"White\": \"x\\ty\"}, \"variant\": \"standard\", \"plies\": 2, \"end\": null, \
             \"claims\": [], \"error\": null}\n"
        );
    }

    #[test]
    fn a_game_with_words_is_left_to_python() {
        let f = facts("1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 2. Ke3 *\n");
        assert!(plain_line(&f[0], None).is_none(), "an end");
        assert!(plain_line(&f[1], None).is_none(), "an error");
    }

    #[test]
    fn control_characters_are_escaped_as_python_does() {
        let mut out = String::new();
        string(&mut out, "a\u{1}\u{8}\u{c}\u{7f}\\");
        assert_eq!(out, "\"a\\u0001\\b\\f\u{7f}\\\\\"");
    }
}
