//! The JSON line of `remis game --json` for a game with nothing to word (no automatic
//! end, no claim, no flag fall and no error), and, given Python's templates, for a game
//! whose only words are a checkmate, a stalemate, claims under 9.2 and 9.3, and a flag
//! fall (6.9) whose verdict is a helpmate found, too little material or a search left
//! undecided. Most games of a collection are such, and their line is written here, in
//! the core, byte for byte as Python's `json` writes the same object
//! (`ensure_ascii=False`, the default separators); the words stay in Python's templates,
//! which the core is handed.

use std::collections::HashMap;
use std::fmt::Write;

use shakmaty::{Chess, Color, Position};

use crate::board::describe_material;
use crate::game::{Flag, GameFacts};
use crate::rules::{Claim, End, EndKind};
use crate::unwinnable::{Answer, Material, Reason, Stop, Verdict};

/// Python's English templates (`remis.messages.MESSAGES`), by message key, with the
/// words of where a position stood (`remis.ruling.positions_text`): `at_start` and
/// `after` (`{move}` the move's label); the templates of a verdict's reasons
/// (`remis.reasons.REASONS`, by their ids, `param.*`); and the words of an end's
/// termination (`remis.messages.TERMINATIONS`) as `termination.` and its id.
pub type Words = HashMap<String, String>;

/// The JSON line (ending in a newline) of a game with nothing to word, or, given
/// `words`, of a game whose only words are a checkmate, a stalemate, claims or a flag
/// fall the core can word (see [`flag_json`]); `None` for any other game (and for words
/// a template asks for that are not given), which Python words. `file` names the game's
/// file first, as when several files are read at once.
#[must_use]
pub fn json_line(f: &GameFacts, file: Option<&str>, words: Option<&Words>) -> Option<String> {
    if f.error.is_some() {
        return None;
    }
    // where positions stood: move labels from the start's move number and side to move
    let start = f
        .start
        .as_ref()
        .map_or((1, Color::White), |p| (p.fullmoves().get(), p.turn()));
    let mut out = start_line(f, file);
    match &f.end {
        None => out.push_str("null"),
        Some(end) => end_json(&mut out, end, words?)?,
    }
    out.push_str(", \"claims\": [");
    for (i, c) in f.claims.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        claim_json(&mut out, c, start, words?)?;
    }
    out.push_str("], \"error\": null");
    if let Some(flag) = &f.flag {
        out.push_str(", \"time_forfeit\": ");
        flag_json(&mut out, flag, f.end.as_ref(), f.last.as_ref()?, words?)?;
    }
    out.push_str("}\n");
    Some(out)
}

/// The line up to the value of `end`.
fn start_line(f: &GameFacts, file: Option<&str>) -> String {
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
    let _ = write!(out, ", \"plies\": {}, \"end\": ", f.plies);
    out
}

/// A parameter of a message: Python's `str` or `int`.
#[derive(Clone, Copy)]
enum Param<'a> {
    Text(&'a str),
    Int(usize),
}

/// `template` with its `{name}` fields filled from `params`, as `str.format_map` fills
/// them; `None` where it asks for more than a plain field of `params`.
fn render(template: &str, params: &[(&str, Param<'_>)]) -> Option<String> {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let brace = rest.as_bytes()[i];
        if rest.as_bytes().get(i + 1) == Some(&brace) {
            out.push(char::from(brace));
            rest = &rest[i + 2..];
            continue;
        }
        if brace == b'}' {
            return None;
        }
        let end = i + rest[i..].find('}')?;
        let name = &rest[i + 1..end];
        match params.iter().find(|(n, _)| *n == name)?.1 {
            Param::Text(t) => out.push_str(t),
            Param::Int(n) => {
                let _ = write!(out, "{n}");
            }
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// `, "explanation": ..., "message": ..., "params": {...}` of a message and its
/// parameters (in the order Python's dict holds them).
fn message_json(
    out: &mut String,
    key: &str,
    params: &[(&str, Param<'_>)],
    words: &Words,
) -> Option<()> {
    let explanation = render(words.get(key)?, params)?;
    out.push_str(", \"explanation\": ");
    string(out, &explanation);
    out.push_str(", \"message\": ");
    string(out, key);
    out.push_str(", \"params\": ");
    params_json(out, params);
    Some(())
}

/// The parameters of a message as a JSON object.
fn params_json(out: &mut String, params: &[(&str, Param<'_>)]) {
    out.push('{');
    for (i, (name, value)) in params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        string(out, name);
        out.push_str(": ");
        match value {
            Param::Text(t) => string(out, t),
            Param::Int(n) => {
                let _ = write!(out, "{n}");
            }
        }
    }
    out.push('}');
}

fn title(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `remis.ruling.color_name`: a player as the JSON names them.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `remis.ruling.win_for`: the result of a win for `color`.
fn win_for(color: Color) -> &'static str {
    match color {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

/// `remis.ruling.Ruling.to_json` of a checkmate or a stalemate (`None` for another end).
fn end_json(out: &mut String, end: &End, words: &Words) -> Option<()> {
    let article = end.article();
    let (result, key, params) = match end.kind {
        EndKind::Checkmate => (
            win_for(!end.mover),
            "checkmate",
            vec![
                ("winner", Param::Text(title(!end.mover))),
                ("loser", Param::Text(title(end.mover))),
                ("article", Param::Text(article)),
            ],
        ),
        EndKind::Stalemate => (
            "1/2-1/2",
            "stalemate",
            vec![
                ("player", Param::Text(title(end.mover))),
                ("article", Param::Text(article)),
            ],
        ),
        _ => return None,
    };
    let _ = write!(
        out,
        "{{\"ply\": {}, \"result\": \"{result}\", \"termination\": \"{key}\", \
         \"article\": \"{article}\", \"plies_involved\": [{}]",
        end.ply, end.ply
    );
    message_json(out, key, &params, words)?;
    out.push('}');
    Some(())
}

/// `remis.ruling.move_label`: move `ply` of a game whose start has move number and side
/// to move `start`, as players write it (`12.`, `12…`).
fn move_label(ply: u32, start: (u32, Color)) -> String {
    let a = (i64::from(start.0) - 1) * 2 + i64::from(start.1 == Color::Black) + i64::from(ply) - 1;
    let a = a.max(0);
    format!("{}{}", a / 2 + 1, if a % 2 == 0 { "." } else { "…" })
}

/// `remis.ruling.positions_text`: where the positions of `plies` stood.
fn positions_text(plies: &[u32], start: (u32, Color), words: &Words) -> Option<String> {
    let (at_start, after) = (words.get("at_start")?, words.get("after")?);
    let mut out = Vec::with_capacity(plies.len());
    for &p in plies {
        out.push(if p == 0 {
            at_start.clone()
        } else {
            render(after, &[("move", Param::Text(&move_label(p, start)))])?
        });
    }
    Some(out.join(", "))
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// `remis.ruling.Claim.to_json` of a claim under 9.2 or 9.3 (the current Laws).
fn claim_json(out: &mut String, c: &Claim, start: (u32, Color), words: &Words) -> Option<()> {
    let player = title(c.player);
    let plies = c
        .plies
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let positions = if c.article.is_repetition() {
        positions_text(&c.plies, start, words)?
    } else {
        String::new()
    };
    let nth = ordinal(c.plies.len());
    let (kind, article, key, params) = if c.article.is_repetition() {
        let article = c.article.text();
        match &c.mv {
            None => (
                "threefold_repetition",
                article,
                "claim_threefold_on_board",
                vec![
                    ("player", Param::Text(player)),
                    ("count", Param::Int(c.plies.len())),
                    ("plies", Param::Text(&plies)),
                    ("positions", Param::Text(&positions)),
                    ("article", Param::Text(article)),
                ],
            ),
            Some(mv) => (
                "threefold_repetition",
                article,
                "claim_threefold_with_move",
                vec![
                    ("player", Param::Text(player)),
                    ("move", Param::Text(mv)),
                    ("nth", Param::Text(&nth)),
                    ("plies", Param::Text(&plies)),
                    ("positions", Param::Text(&positions)),
                    ("article", Param::Text(article)),
                ],
            ),
        }
    } else {
        match &c.mv {
            None => (
                "fifty_moves",
                "9.3.2",
                "claim_fifty_on_board",
                vec![
                    ("player", Param::Text(player)),
                    ("count", Param::Int(usize::try_from(c.count).ok()?)),
                    ("article", Param::Text("9.3.2")),
                ],
            ),
            Some(mv) => (
                "fifty_moves",
                "9.3.1",
                "claim_fifty_with_move",
                vec![
                    ("player", Param::Text(player)),
                    ("move", Param::Text(mv)),
                    ("article", Param::Text("9.3.1")),
                ],
            ),
        }
    };
    let _ = write!(
        out,
        "{{\"ply\": {}, \"player\": \"{}\", \"kind\": \"{kind}\", \"article\": \"{article}\", \
         \"move\": ",
        c.ply,
        color_name(c.player)
    );
    match &c.mv {
        None => out.push_str("null"),
        Some(mv) => string(out, mv),
    }
    message_json(out, key, &params, words)?;
    if !c.moves.is_empty() {
        out.push_str(", \"moves\": [");
        for (i, m) in c.moves.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            string(out, m);
        }
        out.push(']');
    }
    out.push('}');
    Some(())
}

/// `remis.facts.flag_fall_json`: the `time_forfeit` object of a flag fall (6.9) after
/// the game's end (a checkmate or a stalemate: the core words no other), or in the
/// `last` position, where the verdict on the opponent's mate is a helpmate found, too
/// little material or a search left undecided (see [`verdict_reason`]); `None` for any
/// other, which Python words.
fn flag_json(
    out: &mut String,
    flag: &Flag,
    end: Option<&End>,
    last: &Chess,
    words: &Words,
) -> Option<()> {
    let (player, opponent) = (title(flag.player), title(!flag.player));
    // the verdict's reason, named by the parameters below
    let reason;
    let mut params = vec![
        ("player", Param::Text(player)),
        ("opponent", Param::Text(opponent)),
        ("article", Param::Text("6.9")),
    ];
    let _ = write!(
        out,
        "{{\"player\": \"{}\", \"result\": ",
        color_name(flag.player)
    );
    let key;
    let explanation;
    match (end, &flag.verdict) {
        (Some(end), _) => {
            let (result, termination) = match end.kind {
                EndKind::Checkmate => (win_for(!end.mover), "checkmate"),
                EndKind::Stalemate => ("1/2-1/2", "stalemate"),
                _ => return None,
            };
            key = "flag_fall_after_end";
            // the explanation names the termination in words, the parameters by its id
            let named = words.get(&format!("termination.{termination}"))?;
            let mut shown = params.clone();
            shown.push(("termination", Param::Text(named)));
            shown.push(("end_article", Param::Text(end.article())));
            explanation = render(words.get(key)?, &shown)?;
            params.push(("termination", Param::Text(termination)));
            params.push(("end_article", Param::Text(end.article())));
            let _ = write!(
                out,
                "\"{result}\", \"article\": \"6.9\", \"applies\": false, \"can_checkmate\": null"
            );
        }
        (None, Some(v)) => {
            let value;
            (value, reason) = verdict_reason(v, !flag.player, last, words)?;
            key = match value {
                Some(true) => "flag_fall_win",
                Some(false) => "flag_fall_draw",
                None => "flag_fall_undecided",
            };
            let result = if value == Some(false) {
                "1/2-1/2"
            } else {
                win_for(!flag.player)
            };
            let _ = write!(
                out,
                "\"{result}\", \"article\": \"6.9\", \"applies\": true, \"can_checkmate\": "
            );
            verdict_json(out, v, value, &reason, last);
            params.push(("reason", Param::Text(&reason)));
            explanation = render(words.get(key)?, &params)?;
        }
        (None, None) => return None,
    }
    out.push_str(", \"message\": ");
    string(out, key);
    out.push_str(", \"params\": ");
    params_json(out, &params);
    out.push_str(", \"explanation\": ");
    string(out, &explanation);
    out.push('}');
    Some(())
}

/// `remis.unwinnable.Verdict.to_json` of the verdict `v` on `last`, whose value and
/// reason are given.
fn verdict_json(out: &mut String, v: &Verdict, value: Option<bool>, reason: &str, last: &Chess) {
    out.push_str("{\"value\": ");
    out.push_str(match value {
        Some(true) => "true",
        Some(false) => "false",
        None => "null",
    });
    out.push_str(", \"reason\": ");
    string(out, reason);
    out.push_str(", \"line\": ");
    match &v.answer {
        Answer::Can(line) => {
            // castling written as the position's castling mode writes it, as Python gets it
            let mode = last.castles().mode();
            out.push('[');
            for (i, m) in line.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "\"{}\"", m.to_uci(mode));
            }
            out.push(']');
        }
        _ => out.push_str("null"),
    }
    let _ = write!(out, ", \"method\": \"{}\"}}", v.method.name());
}

/// The value of the verdict `v` on whether `color` can still checkmate in `last`, and
/// its reason in words (`remis.unwinnable.verdict_from_core`), for a helpmate found, too
/// little material (with no forced moves first) or an undecided search; `None` for any
/// other reason, which Python words.
fn verdict_reason(
    v: &Verdict,
    color: Color,
    last: &Chess,
    words: &Words,
) -> Option<(Option<bool>, String)> {
    let player = Param::Text(title(color));
    Some(match &v.answer {
        Answer::Can(line) => {
            let reason = match line.len() {
                0 => render(words.get("param.already_mated")?, &[("player", player)])?,
                1 => render(words.get("param.helpmate_ply")?, &[("player", player)])?,
                n => render(
                    words.get("param.helpmate_plies")?,
                    &[("player", player), ("n", Param::Int(n))],
                )?,
            };
            (Some(true), reason)
        }
        Answer::Cannot(Reason::Material(m)) if v.forced.is_empty() => {
            let id = match m {
                Material::BareKing => "param.material_bare",
                Material::Insufficient => "param.material_never",
                Material::NoPromotion => "param.material_promotion",
            };
            let material = describe_material(last);
            let params = [("player", player), ("material", Param::Text(&material))];
            (Some(false), render(words.get(id)?, &params)?)
        }
        Answer::Unknown => {
            let limit = words.get(match v.stop {
                Some(Stop::Quick) | None => "param.limit_quick",
                Some(Stop::Nodes) => "param.limit_nodes",
                Some(Stop::Time) => "param.limit_time",
                Some(Stop::Interrupted) => "param.limit_interrupt",
            })?;
            let reason = if v.nodes == 1 {
                render(
                    words.get("param.undecided_limit_one")?,
                    &[("limit", Param::Text(limit))],
                )?
            } else {
                let n = usize::try_from(v.nodes).ok()?;
                render(
                    words.get("param.undecided_limit")?,
                    &[("limit", Param::Text(limit)), ("n", Param::Int(n))],
                )?
            };
            (None, reason)
        }
        Answer::Cannot(_) => return None,
    })
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
    // (most values need no escape: copied whole)
    if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        out.push_str(s);
        out.push('"');
        return;
    }
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
            json_line(&f[0], Some("d/é.pgn"), None).unwrap(),
            "{\"file\": \"d/é.pgn\", \"game\": 1, \"headers\": {\"Event\": \"c\", \
             \"White\": \"x\\ty\"}, \"variant\": \"standard\", \"plies\": 2, \"end\": null, \
             \"claims\": [], \"error\": null}\n"
        );
    }

    #[test]
    fn a_game_with_words_is_left_to_python() {
        let f = facts("1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 2. Ke3 *\n");
        assert!(json_line(&f[0], None, None).is_none(), "an end");
        assert!(json_line(&f[1], None, None).is_none(), "an error");
    }

    #[test]
    fn control_characters_are_escaped_as_python_does() {
        let mut out = String::new();
        string(&mut out, "a\u{1}\u{8}\u{c}\u{7f}\\");
        assert_eq!(out, "\"a\\u0001\\b\\f\u{7f}\\\\\"");
    }
}
