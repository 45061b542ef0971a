//! The floor of `remis game`: every game of the PGN files named read by pgn-reader and its
//! main line replayed by shakmaty (SAN to move, legality, the move played), nothing else.
//! `--outcome` also asks after each ply what a replay that rules must ask at least: the
//! legal moves (checkmate, stalemate) and whether the material is insufficient.
//!
//! Prints `games plies` on one line; `benchmarks/replay.py` times it as a process.

use std::{env, fs::File, io, ops::ControlFlow, process};

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

struct Replay {
    outcome: bool,
    games: u64,
    plies: u64,
    /// positions found mated, stalemated or without mating material (so the
    /// questions are not optimised away)
    ended: u64,
}

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = Option<Chess>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            // a game that cannot be set up is skipped, as remis reports it without replaying
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(p) => *tags = Some(p),
                None => return ControlFlow::Break(()),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<(), Self::Movetext> {
        ControlFlow::Continue(Some(tags.unwrap_or_default()))
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<()> {
        let Some(pos) = movetext else {
            return ControlFlow::Continue(());
        };
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                if self.outcome
                    && (pos.legal_moves().is_empty() || pos.is_insufficient_material())
                {
                    self.ended += 1;
                }
                ControlFlow::Continue(())
            }
            Err(_) => {
                // an illegal move ends the replay of its game, as in remis
                *movetext = None;
                ControlFlow::Continue(())
            }
        }
    }

    fn end_game(&mut self, _: Self::Movetext) {}
}

fn main() -> io::Result<()> {
    let mut replay = Replay {
        outcome: false,
        games: 0,
        plies: 0,
        ended: 0,
    };
    let mut paths = Vec::new();
    for arg in env::args().skip(1) {
        match arg.as_str() {
            "--outcome" => replay.outcome = true,
            _ => paths.push(arg),
        }
    }
    if paths.is_empty() {
        eprintln!("usage: remis-floor [--outcome] FILE.pgn...");
        process::exit(2);
    }
    for path in paths {
        let mut reader = Reader::new(File::open(&path)?);
        while reader.read_game(&mut replay)?.is_some() {}
    }
    println!("{} {} {}", replay.games, replay.plies, replay.ended);
    Ok(())
}
