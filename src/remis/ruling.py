"""The one currency of remis: a :class:`Ruling` (how a game ends) and a
:class:`Claim` (a draw a player may claim, or the verdict on one).

Both carry the FIDE article they rest on, the plies they rest on and an English
explanation rendered from a message id (see :mod:`remis.messages`), so that
other front ends can render the same ruling in another language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import chess

from remis.messages import render

WHITE_WINS = "1-0"
BLACK_WINS = "0-1"
DRAW = "1/2-1/2"


def color_name(color: chess.Color) -> str:
    """Return ``"white"`` or ``"black"``.

    >>> color_name(chess.BLACK)
    'black'
    """
    return "white" if color else "black"


def move_label(ply: int, board: chess.Board, at_ply: int) -> str:
    """Move ``ply`` of a game as players write it: ``"12."`` for White's 12th
    move, ``"12…"`` for Black's; ``board`` is the position after ``at_ply``
    plies (its move number and side to move place the game's start).

    >>> board = chess.Board("8/8/4k3/8/8/3K4/8/6R1 b - - 0 40")
    >>> move_label(1, board, 0), move_label(2, board, 0)
    ('40…', '41.')
    >>> move_label(89, chess.Board(), 0)
    '45.'
    """
    a = max(0, (board.fullmove_number - 1) * 2 + (board.turn == chess.BLACK) - at_ply + ply - 1)
    return f"{a // 2 + 1}{'.' if a % 2 == 0 else '…'}"


#: the words of :func:`positions_text`, which the core is handed too
#: (:func:`remis.game.game_lines`)
AT_START = "at the start"
AFTER = "after {move}"


def positions_text(plies: tuple[int, ...] | list[int], board: chess.Board, at_ply: int) -> str:
    """Where a position stood, as players say it: after which moves, or at
    the start (the words are translated as parameters, see :mod:`remis.i18n`).

    >>> positions_text((0, 4, 8), chess.Board(), 0)
    'at the start, after 2…, after 4…'
    """
    return ", ".join(AT_START if p == 0 else AFTER.format(move=move_label(p, board, at_ply))
                     for p in plies)


def win_for(color: chess.Color) -> str:
    """Return the result string of a win for ``color``.

    >>> win_for(chess.WHITE)
    '1-0'
    """
    return WHITE_WINS if color else BLACK_WINS


@dataclass(frozen=True)
class Ruling:
    """How (and whether) a game ends, with the article it rests on.

    >>> r = Ruling(ply=4, result="0-1", termination="checkmate", article="5.1.1",
    ...            plies=(4,), message="checkmate",
    ...            params={"winner": "Black", "loser": "White", "article": "5.1.1"})
    >>> r.explanation
    'Black checkmated White: the game ends at once (Article 5.1.1).'
    >>> r.to_json()["termination"]
    'checkmate'
    """

    ply: int
    result: str
    termination: str
    article: str
    plies: tuple[int, ...]
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    evidence: Mapping[str, Any] = field(default_factory=dict)

    @property
    def explanation(self) -> str:
        """The English one-sentence explanation.

        >>> r = Ruling(ply=4, result="0-1", termination="checkmate", article="5.1.1",
        ...            plies=(4,), message="checkmate",
        ...            params={"winner": "Black", "loser": "White", "article": "5.1.1"})
        >>> r.explanation
        'Black checkmated White: the game ends at once (Article 5.1.1).'
        """
        return render(self.message, self.params)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of the CLI contract (``end`` of ``remis game``).

        >>> r = Ruling(ply=4, result="0-1", termination="checkmate", article="5.1.1",
        ...            plies=(4,), message="checkmate",
        ...            params={"winner": "Black", "loser": "White", "article": "5.1.1"})
        >>> j = r.to_json()
        >>> j["result"], j["article"], j["plies_involved"]
        ('0-1', '5.1.1', [4])
        >>> "evidence" in j
        False
        """
        out: dict[str, Any] = {
            "ply": self.ply,
            "result": self.result,
            "termination": self.termination,
            "article": self.article,
            "plies_involved": list(self.plies),
            "explanation": self.explanation,
            "message": self.message,
            "params": dict(self.params),
        }
        if self.evidence:
            out["evidence"] = dict(self.evidence)
        return out


THREEFOLD = "threefold_repetition"
FIFTY = "fifty_moves"


@dataclass(frozen=True)
class Claim:
    """A draw claim under 9.2 or 9.3: one the player to move could make, or the
    verdict on one that was made (``valid`` False for an incorrect claim).

    ``move`` is the intended move (SAN) for 9.2.1 / 9.3.1 and ``None`` for
    9.2.2 / 9.3.2.  ``plies`` are the plies the claim rests on: the earlier
    occurrences of the repeated position (plus ``ply + 1`` for an intended
    move), or the plies of the no-progress run.

    >>> c = Claim(ply=8, player="white", kind="threefold_repetition", article="9.2.2",
    ...           move=None, plies=(0, 4, 8), valid=True, message="claim_threefold_on_board",
    ...           params={"player": "White", "count": 3, "plies": "0, 4, 8", "article": "9.2.2",
    ...                   "positions": "at the start, after 2…, after 4…"})
    >>> c.to_json()["article"], c.to_json()["move"]
    ('9.2.2', None)
    """

    ply: int
    player: str
    kind: str
    article: str
    move: str | None
    plies: tuple[int, ...]
    valid: bool
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    @property
    def explanation(self) -> str:
        """The English one-sentence explanation.

        >>> c = Claim(ply=8, player="white", kind="threefold_repetition", article="9.2.2",
        ...           move=None, plies=(0, 4, 8), valid=True,
        ...           message="claim_threefold_on_board",
        ...           params={"player": "White", "count": 3, "plies": "0, 4, 8",
        ...                   "article": "9.2.2", "positions": "at the start, after 2…, after 4…"})
        >>> print(c.explanation)  # doctest: +NORMALIZE_WHITESPACE
        White may claim a draw under Article 9.2.2: the position on the board has appeared
        3 times (at the start, after 2…, after 4…).
        """
        return render(self.message, self.params)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of the CLI contract (an item of ``claims``).

        >>> c = Claim(ply=8, player="white", kind="threefold_repetition", article="9.2.2",
        ...           move=None, plies=(0, 4, 8), valid=True,
        ...           message="claim_threefold_on_board",
        ...           params={"player": "White", "count": 3, "plies": "0, 4, 8",
        ...                   "article": "9.2.2", "positions": "at the start, after 2…, after 4…"})
        >>> j = c.to_json()
        >>> j["kind"], j["article"], j["move"], "moves" in j
        ('threefold_repetition', '9.2.2', None, False)
        """
        out: dict[str, Any] = {
            "ply": self.ply,
            "player": self.player,
            "kind": self.kind,
            "article": self.article,
            "move": self.move,
            "explanation": self.explanation,
            "message": self.message,
            "params": dict(self.params),
        }
        if self.moves:
            out["moves"] = list(self.moves)
        return out

    def verdict_json(self) -> dict[str, Any]:
        """Return the JSON object of ``remis claim`` (the verdict on one claim).

        An incorrect claim: the position has stood on the board only twice.

        >>> from remis.history import History
        >>> from remis.rules import rule_on_claim
        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> v = rule_on_claim(h).verdict_json()
        >>> v["valid"], v["article"], v["occurrences"], v["params"]["penalty"]
        (False, '9.2.2', [0, 4], '2 minutes')

        """
        return {
            "valid": self.valid,
            "ply": self.ply,
            "player": self.player,
            "kind": self.kind,
            "article": self.article,
            "move": self.move,
            "occurrences": list(self.plies) if self.kind == THREEFOLD else [],
            "plies_involved": list(self.plies),
            "explanation": self.explanation,
            "message": self.message,
            "params": dict(self.params),
        }
