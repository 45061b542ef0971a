"""PGN reading: compression, encodings, game boundaries, bad input."""

from __future__ import annotations

import bz2
import gzip
import io
from pathlib import Path

import pytest
import zstandard

from remis.compressed import CorruptInput
from remis.game import rule_on_parsed, rule_on_pgn_file
from remis.pgn import GameText, parse_game, read_games, split_games

FOOLS = b'[Event "x"]\n[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n'


@pytest.mark.parametrize("suffix,compress", [
    (".pgn", lambda b: b),
    (".pgn.gz", gzip.compress),
    (".pgn.bz2", bz2.compress),
    (".pgn.zst", lambda b: zstandard.ZstdCompressor().compress(b)),
])
def test_compressed_inputs(tmp_path: Path, suffix: str, compress) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / f"g{suffix}"
    p.write_bytes(compress(FOOLS * 3))
    rulings = list(rule_on_pgn_file(p))
    assert [r.index for r in rulings] == [1, 2, 3]
    assert all(r.end is not None and r.end.termination == "checkmate" for r in rulings)


ZSTD = zstandard.ZstdCompressor().compress


@pytest.mark.parametrize("suffix,compress", [
    # (bz2 at level 1: 100 kB blocks, so that whole blocks come before the cut)
    (".pgn.gz", gzip.compress), (".pgn.bz2", lambda b: bz2.compress(b, 1)),
    (".pgn.zst", ZSTD)])
def test_truncated_compressed_input_is_an_error_after_the_games_before(
        tmp_path: Path, suffix: str, compress) -> None:  # type: ignore[no-untyped-def]
    # random game numbers in the Event tag keep the data from compressing to nothing
    text = b"".join(FOOLS.replace(b'"x"', f'"{i * 7919 % 100003}"'.encode())
                    for i in range(4000))
    data = compress(text)
    p = tmp_path / f"g{suffix}"
    p.write_bytes(data[: len(data) * 3 // 4])
    read = 0
    with pytest.raises(CorruptInput, match="truncated"):
        for _ in read_games(p):
            read += 1
    assert 0 < read < 4000


def test_zstd_frames_are_all_read_and_garbage_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "g.pgn.zst"
    p.write_bytes(ZSTD(FOOLS) + ZSTD(FOOLS * 2))
    assert len(list(read_games(p))) == 3
    p.write_bytes(b"not zstd at all\n")
    with pytest.raises(CorruptInput, match="not readable as zstd"):
        list(read_games(p))


def test_latin1_names_survive(tmp_path: Path) -> None:
    p = tmp_path / "latin.pgn"
    p.write_bytes('[White "Kasparov, Gárry"]\n\n1. e4 *\n'.encode("latin-1"))
    (g,) = read_games(p)
    assert g.headers["White"] == "Kasparov, Gárry"


def test_offsets_point_at_each_game() -> None:
    data = FOOLS * 2 + b"1. e4 e5 *\n"
    games = list(split_games(io.BytesIO(data)))
    assert [g.offset for g in games] == [0, len(FOOLS), 2 * len(FOOLS)]
    for g in games:
        assert data[g.offset:].startswith(g.encoded()[:10])


def test_byte_range_split_covers_each_game_once() -> None:
    data = FOOLS * 5
    cut = len(FOOLS) * 2 + 7  # inside game 3
    first = list(split_games(io.BytesIO(data), end=cut))
    stream = io.BytesIO(data)
    # a worker starting mid-file skips to the next game boundary (the caller's job);
    # here we start at the boundary after the cut
    start = len(FOOLS) * 3
    stream.seek(start)
    rest = list(split_games(stream, offset=start, first_index=4))
    assert [g.index for g in first] == [1, 2, 3] and [g.index for g in rest] == [4, 5]


def test_illegal_move_is_reported_and_next_game_read(tmp_path: Path) -> None:
    p = tmp_path / "bad.pgn"
    p.write_bytes(b"1. e4 e5 2. Ke3 Nc6 *\n\n" + FOOLS)
    first, second = rule_on_pgn_file(p)
    assert first.plies == 2 and first.error is not None and first.error.ply == 3
    assert "Ke3" in first.error.message
    assert second.error is None and second.end is not None


def test_non_standard_variant_is_refused(test_data: Path) -> None:
    (g,) = rule_on_pgn_file(test_data / "pgn" / "saturs-jannlee-zh-lichess.pgn")
    assert g.plies == 0 and g.error is not None and "Crazyhouse" in g.error.message


def test_chess960_games_replay(test_data: Path) -> None:
    games = list(rule_on_pgn_file(test_data / "pgn" / "cutechess-fischerrandom.pgn"))
    assert games and all(g.error is None and g.variant == "chess960" for g in games)
    # every game of this file ends in mate, as its Result says
    assert all(g.end is not None and g.end.result == g.headers["Result"] for g in games)


def test_uci_movetext_and_variations(test_data: Path) -> None:
    (g,) = rule_on_pgn_file(test_data / "pgn" / "uci-moves.pgn")
    assert g.error is None and g.plies > 100
    (v,) = rule_on_pgn_file(test_data / "pgn" / "games_variations-nags-and-comments.pgn")
    assert v.error is None and v.plies == 13


def test_empty_line_inside_headers(test_data: Path) -> None:
    (g,) = rule_on_pgn_file(test_data / "pgn" / "chessbase-empty-line.pgn")
    assert g.headers["White"] == "Stockfish 8" and g.plies == 134 and g.error is None


def test_two_empty_lines_between_headers_and_moves_keep_one_game(tmp_path: Path) -> None:
    # as in 7 games of ../shared/data/masters (e.g. Kosteniuk.pgn, Kosteniuk-Burress,
    # US Open 2009): python-chess's reader ends the game at the second empty
    # line and reads the moves as a game of their own without headers
    path = tmp_path / "gap.pgn"
    path.write_bytes(b'[Event "x"]\r\n[Result "1-0"]\r\n\r\n\r\n'
                     b'1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r\n\r\n'
                     + FOOLS)
    first, second = rule_on_pgn_file(path)
    assert first.headers["Event"] == "x" and first.plies == 7 and first.error is None
    assert first.end is not None and first.end.termination == "checkmate"
    assert second.headers["White"] == "A" and second.plies == 4


def test_bad_fen_header_is_an_error() -> None:
    g = parse_game_text('[FEN "8/8/8/8/8/8/8/K7 w - - 0 1"]\n\n1. Ka2 *\n')
    assert g.board is None and g.moves == []
    assert g.error == (0, "illegal start position 8/8/8/8/8/8/8/K7 w - - 0 1: no black king")


def test_unreadable_fen_header_is_an_error_at_ply_0_naming_the_tag() -> None:
    g = parse_game_text('[FEN "garbage fen"]\n[SetUp "1"]\n\n1. e4 *\n')
    assert g.board is None and g.error is not None
    assert g.error[0] == 0 and g.error[1].startswith("unreadable FEN tag 'garbage fen'")


@pytest.mark.parametrize("fen,reason", [
    ("8/8/8/8/8/8/8/8 w - - 0 1", "no white king, no black king, empty board"),  # was stalemate
    ("kK6/8/8/8/8/8/8/8 w - - 0 1", "kings on adjacent squares"),   # was ruled dead
    ("k7/8/8/8/8/8/8/K6r b - - 0 1", "the side not to move is in check"),
])
def test_an_illegal_start_position_is_not_ruled_on(fen: str, reason: str) -> None:
    # the position error comes first, even when a move is illegal there too
    g = rule_on_parsed(parse_game_text(f'[FEN "{fen}"]\n\n1. e4 *\n'))
    assert (g.end, g.claims, g.plies) == (None, [], 0)
    assert g.error is not None and (g.error.ply, g.error.message) == (
        0, f"illegal start position {fen}: {reason}")


@pytest.mark.parametrize("null", ["--", "Z0", "0000"])
@pytest.mark.parametrize("san_only", [False, True])
def test_a_null_move_is_an_illegal_move(null: str, san_only: bool) -> None:
    # python-chess reads these as a null move; under the Laws there is no such move
    from remis.audit.checks import audit_replay
    from remis.pgn import GameText

    g = parse_game(GameText(1, 0, f"1. Nf3 Nf6 2. Ng1 {null} 3. Nf3 *\n"))
    plies = audit_replay(g).plies if san_only else rule_on_parsed(g).plies
    assert plies == 3 and g.error is not None and g.error[0] == 4
    assert f"null move {null!r} is not a legal move" in g.error[1]


def parse_game_text(text: str):  # type: ignore[no-untyped-def]
    from remis.pgn import GameText

    return parse_game(GameText(1, 0, text))


@pytest.mark.parametrize("movetext,ply,token", [
    ("1. e4 e5 2. Qxx7 Nc6 3. Bb5 *", 3, "Qxx7"),    # python-chess skips it silently
    ("1. e4 e5 2. Nf3 Zf6 3. Bb5 *", 4, "Zf6"),      # would be read as the pawn move f6
    ("1. e4 e5 2. Nf3, Nc6 *", 3, "Nf3,"),
])
def test_text_the_reader_would_skip_stops_the_game(movetext: str, ply: int, token: str) -> None:
    g = parse_game(GameText(1, 0, f'[Event "x"]\n\n{movetext}\n'))
    assert g.error == (ply, f"unreadable move text {token!r}")
    assert len(g.moves) == ply - 1
    (r,) = rule_on_pgn_text(f"{movetext}\n")
    assert r.plies == ply - 1 and r.error is not None and r.error.ply == ply


def test_comments_variations_and_annotations_are_not_unreadable() -> None:
    text = ('[Event "x"]\n% escape line\n\n1. e4 {a comment, with 2. Qxx7} e5 ; rest, of line\n'
            '2. Nf3!? $14 (2. Qxx7 garbage in a variation) 2... Nc6 3. Bb5 a6 4. O-O+ 1-0\n')
    g = parse_game(GameText(1, 0, text))
    assert g.error is None and len(g.moves) == 7


def rule_on_pgn_text(text: str):  # type: ignore[no-untyped-def]
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "g.pgn"
        p.write_text(text)
        return list(rule_on_pgn_file(p))
