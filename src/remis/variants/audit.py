"""``remis audit --variant shogi|xiangqi``: shogi and xiangqi records whose
recorded result or moves contradict the rules, as findings of the same
shape as the chess audit's (:class:`remis.audit.checks.Finding`, plus the
record's ``line`` and ``variant``), written and counted by the chess audit's
machinery (:mod:`remis.audit.output`, :mod:`remis.audit.stats`).

The rules are never decided here: the replay
(:func:`remis.variants.records.rule_on_record`, on
:class:`~remis.variants.history.VariantHistory`) finds the automatic end;
the checks only compare it with the record:

* ``moves_after_end``: the record goes on after the game had ended
  (repetition, perpetual check, checkmate, no legal move);
* ``illegal_move``: an illegal or unreadable move, or an unreadable record;
* ``result_after_end``: the game ended by repetition or perpetual check on
  its last recorded move and the recorded result differs;
* ``result_vs_position``: the final position is checkmate (or no legal
  move) and the recorded result differs;
* ``result_of_impasse`` (shogi): the record ends in a declaration by
  entering king (CSA ``%KACHI``), ruled by the CSA 27-point rule, or in an
  impasse (``%JISHOGI``, 持将棋) with both kings in the enemy camp, ruled by
  the JSA 24-point rule, and the recorded result differs.

A game gets at most one finding; a game whose record gives no result (``*``)
is checked for its moves only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from remis.audit.checks import Finding
from remis.audit.stats import Summary, bump, new_summary
from remis.ruling import DRAW
from remis.variants.game import VariantGameRuling
from remis.variants.kifu import GameRecord
from remis.variants.records import rule_on_record
from remis.variants.rules import VariantRules

#: the checks, in the order they are tried on a game
VARIANT_CHECKS = ("moves_after_end", "illegal_move", "result_after_end", "result_vs_position",
                  "result_of_impasse")

_DECIDED = ("1-0", "0-1", DRAW)


@dataclass
class VariantFinding(Finding):
    """A :class:`~remis.audit.checks.Finding` on a shogi or xiangqi record,
    with the line where the record starts and the variant.

    >>> f = VariantFinding("illegal_move", 2, 30, {}, "1-0", None, None, "JSA illegal move",
    ...                    3, {}, "x", "JSA rules", line=4, variant="shogi")
    >>> f.to_json()["line"], f.to_json()["article"]
    (4, 'JSA illegal move')
    """

    line: int = 0
    variant: str = ""

    def to_json(self) -> dict[str, Any]:
        """The chess finding's JSON object with ``line`` and ``variant`` added.

        >>> sorted(set(VariantFinding("x", 1, 0, {}, "*", None, None, "", 0, {}, "", "").to_json())
        ...        - set(Finding("x", 1, 0, {}, "*", None, None, "", 0, {}, "", "").to_json()))
        ['line', 'variant']
        """
        out = super().to_json()
        out["line"] = self.line
        out["variant"] = self.variant
        return out


def rules_label(rules: VariantRules) -> str:
    """The rule set a finding was judged under (the ``laws`` field).

    >>> from remis.variants.rules import rules_for
    >>> rules_label(rules_for("xiangqi", 3)).split(", ")
    ['WXF rules (xiangqi): 3 occurrences end the game', 'perpetual check loses', \
'perpetual chase loses (AXF)']
    >>> rules_label(rules_for("xiangqi", 3, "none"))[-18:]
    'chase not analysed'
    """
    text = (f"{rules.authority} rules ({rules.variant}): {rules.repetitions} occurrences end "
            "the game, perpetual check loses")
    if rules.variant == "xiangqi":
        text += ", chase not analysed" if rules.chase == "none" else \
            ", perpetual chase loses (AXF)"
    return text


@dataclass
class _Game:
    rec: GameRecord
    ruling: VariantGameRuling
    rules: VariantRules
    path: str

    def finding(self, check: str, result: str | None, article: str, ply: int,
                evidence: dict[str, Any], text: str) -> VariantFinding:
        r = self.rec
        return VariantFinding(check, r.index, r.offset, dict(r.headers), r.result or "*",
                              r.termination, result, article, ply, evidence, text,
                              rules_label(self.rules), self.path, line=r.line,
                              variant=self.rules.variant)


def _moves_after_end(g: _Game) -> VariantFinding | None:
    end, rg = g.ruling.end, g.ruling
    if end is None or rg.recorded_plies <= end.ply:
        return None
    recorded = g.rec.result
    tail = (f" The recorded result {recorded} differs from {end.result}."
            if recorded in _DECIDED and recorded != end.result else
            " The moves after the end are not part of the game.")
    text = (f"The game ended at ply {end.ply}: {end.explanation} The record goes on to ply "
            f"{rg.recorded_plies}.{tail}")
    ev = {"end": end.to_json(), "recorded_plies": rg.recorded_plies,
          "plies_involved": list(end.plies)}
    return g.finding("moves_after_end", end.result, end.article, end.ply, ev, text)


def _illegal_move(g: _Game) -> VariantFinding | None:
    err = g.ruling.error
    if err is None:
        return None
    ply, message = int(err["ply"]), str(err["message"])
    illegal = message.startswith("illegal move")
    article = g.rules.article("illegal_move") if illegal else "unreadable record"
    ev: dict[str, Any] = {"message": message, "replayed_plies": g.ruling.plies}
    if ply > 0:
        what = "an illegal move" if illegal else "a move that cannot be read"
        text = (f"The record has {what} at ply {ply} ({message}); the game cannot be "
                "replayed past it.")
    else:
        text = f"The game cannot be replayed at all ({message})."
    return g.finding("illegal_move", None, article, ply, ev, text)


def _result_at_end(g: _Game, terminations: tuple[str, ...], check: str) -> VariantFinding | None:
    end, rg = g.ruling.end, g.ruling
    recorded = g.rec.result
    if (end is None or end.termination not in terminations or rg.recorded_plies != end.ply
            or recorded not in _DECIDED or recorded == end.result):
        return None
    text = f"{end.explanation} The recorded result {recorded} should be {end.result}."
    ev = {"end": end.to_json(), "plies_involved": list(end.plies)}
    return g.finding(check, end.result, end.article, end.ply, ev, text)


def _result_after_end(g: _Game) -> VariantFinding | None:
    return _result_at_end(g, ("repetition", "perpetual_check", "perpetual_chase"),
                          "result_after_end")


def _result_vs_position(g: _Game) -> VariantFinding | None:
    return _result_at_end(g, ("checkmate", "no_legal_move"), "result_vs_position")


def _result_of_impasse(g: _Game) -> VariantFinding | None:
    return _result_at_end(g, ("impasse_declaration", "impasse"), "result_of_impasse")


_CHECK_FUNCTIONS: dict[str, Callable[[_Game], VariantFinding | None]] = {
    "result_of_impasse": _result_of_impasse,
    "moves_after_end": _moves_after_end,
    "illegal_move": _illegal_move,
    "result_after_end": _result_after_end,
    "result_vs_position": _result_vs_position,
}


def audit_record(rec: GameRecord, rules: VariantRules, *, path: str = "",
                 notation: str | None = None,
                 checks: tuple[str, ...] = VARIANT_CHECKS) -> VariantFinding | None:
    """Replay one record and run ``checks`` on it; the first finding, if any.

    >>> rec = GameRecord(1, 1, 0, "startpos", ["2h3h", "8b7b", "3h2h", "7b8b"] * 3, "1-0")
    >>> from remis.variants.rules import rules_for
    >>> f = audit_record(rec, rules_for("shogi"))
    >>> f.check, f.result_under_laws, f.article, f.ply
    ('result_after_end', '1/2-1/2', 'JSA sennichite', 12)
    """
    g = _Game(rec, rule_on_record(rec, rules.variant, repetitions=rules.repetitions,
                                  notation=notation), rules, path)
    found = (_CHECK_FUNCTIONS[name](g) for name in VARIANT_CHECKS if name in checks)
    return next((f for f in found if f is not None), None)


def audit_records(records: Iterable[GameRecord], rules: VariantRules, path: str, *,
                  notation: str | None = None, checks: tuple[str, ...] = VARIANT_CHECKS,
                  summary: Summary | None = None) -> Iterator[VariantFinding]:
    """Audit every record, counting games and findings into ``summary`` (the
    chess audit's counters).  A game that cannot be audited is a finding.

    >>> s = new_summary()
    >>> recs = [GameRecord(1, 1, 0, "startpos", ["7g7f"], "1-0"),
    ...         GameRecord(2, 2, 20, "startpos", ["7g7f", "7g7f"], "1-0")]
    >>> from remis.variants.rules import rules_for
    >>> [(f.game, f.check, f.ply) for f in audit_records(recs, rules_for("shogi"), "x", summary=s)]
    [(2, 'illegal_move', 2)]
    >>> s["games"], s["by_check"]
    (2, {'illegal_move': 1})
    """
    s = summary if summary is not None else new_summary()
    for rec in records:
        s["games"] += 1
        bump(s["games_by_file"], path)
        bump(s["games_by_time_control"], "unknown")
        try:
            f = audit_record(rec, rules, path=path, notation=notation, checks=checks)
        except Exception as exc:  # a bug or a pathological record: report, go on
            f = _Game(rec, VariantGameRuling(rec.line, rules.variant, rec.start, 0, None, None),
                      rules, path).finding(
                "illegal_move", None, "unreadable record", 0,
                {"message": f"{type(exc).__name__}: {exc}"},
                f"The game could not be audited ({type(exc).__name__}: {exc}).")
        if f is None:
            continue
        s["findings"] += 1
        bump(s["by_check"], f.check)
        bump(s["by_file"], path)
        bump(s["by_time_control"], "unknown")
        yield f
