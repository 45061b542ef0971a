// The "Analyse" panel: paste a FEN or a PGN, see every ruling (stateless
// endpoints /v1/position and /v1/pgn), the claimable draws ply by ply, and a
// helpmate line played through on the board.

import { Chess } from 'chess.js';
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';

import { ApiError, call, type GameReport, type PositionReport, type Ruling } from './api';
import { $, el } from './dom';
import { sentence, sideName, t, translateParam } from './i18n';
import { plainError } from './errors';
import { findLine, lineFens, toLine, type Line } from './evidence';
import { moveLabel } from './movelist';
import { lineStepper } from './stepper';
import { rulingBox, rulingText } from './views';

let board: Api;
let lastInput = '';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** One line with a slash and no move numbers: meant as a FEN (perhaps a broken one). */
export function looksLikeFen(text: string): boolean {
  const lines = text.trim().split('\n');
  return lines.length === 1 && lines[0].includes('/') && !/\d+\.\s*[a-hNBRQKO]/.test(lines[0]);
}

/** Tags, or moves after move numbers: meant as a PGN. */
function looksLikePgn(text: string): boolean {
  return /^\s*\[\w+\s+"/m.test(text) || /\b\d+\.\s*(\.\.\s*)?[a-hNBRQKO]/.test(text);
}

function show(fen: string, last?: [string, string]): void {
  board.set({ fen, lastMove: last as Key[] | undefined });
  $('analysis-board').dataset.fen = fen;
}

/** A line to step through on the analysis board. */
function stepper(l: Line, label: string): HTMLElement {
  const steps = lineFens(l);
  return lineStepper(l.fen, l.san, steps, (fen, last) => show(fen, last), label);
}

/** A helpmate line in `evidence`, to step through on the board (a "cannot" ruling gives its reason itself). */
function helpmateBox(evidence: unknown, fen: string): HTMLElement | null {
  const uci = findLine(evidence);
  if (!uci) return null;
  const l = toLine(fen, uci);
  if (!l.san.length) return null;
  return el('div', { 'data-testid': 'helpmate' }, el('p', {}, t('ui.helpmate_line_short')),
    stepper(l, t('ui.helpmate_line_short')));
}

type Side = 'white' | 'black';

/** One side's answer to "can this side still checkmate?" (remis position --json: "unwinnability"). */
interface Verdict {
  value: boolean | null;
  reason?: string;
  line?: string[] | null;
}

/** "Can this side still checkmate?" for both sides: what a flag fall (6.9) turns on. */
function mateBox(rep: PositionReport): HTMLElement | null {
  const verdicts = rep.unwinnability as Partial<Record<Side, Verdict>> | undefined;
  if (!verdicts || typeof verdicts !== 'object') return null;
  const box = el('div', { class: 'mate', 'data-testid': 'can-checkmate' }, el('h2', {}, t('ui.flag_heading')));
  for (const side of ['white', 'black'] as Side[]) {
    const v = verdicts[side];
    if (!v) continue;
    const flagged = side === 'white' ? 'black' : 'white';
    const who = sideName(side);
    const p = el('p', { 'data-side': side }, el('strong', {}, `${t('ui.flag_of', { player: sideName(flagged) })} `));
    // short sentences: the verdict, then the engine's reason as a sentence of its own
    const reason = v.reason ? ` ${sentence(translateParam(v.reason))}` : '';
    let line: HTMLElement | null = null;
    if (v.value === true) {
      p.append(t('ui.can_mate', { player: who }));
      if (v.line && v.line.length) line = stepper(toLine(rep.fen, v.line), t('ui.can_mate', { player: who }));
    } else if (v.value === false) {
      // a game-over ruling above gives the reasons already: each once
      p.append(`${t('ui.cannot_mate_short', { player: who })}${rep.end ? '' : reason}`);
    } else {
      p.append(`${t('ui.mate_unknown_short', { player: who })}${reason}`);
    }
    box.append(p);
    if (line) box.append(line);
  }
  return box;
}

function claimsTable(claims: Ruling[], startFen: string, onRow?: (ply: number) => void): HTMLElement {
  const head = el(
    'tr',
    {},
    el('th', {}, t('ui.after_move')),
    el('th', {}, t('ui.player')),
    el('th', {}, t('ui.move')),
    el('th', {}, t('ui.explanation')),
  );
  const rows = claims.map((c) => {
    const tr = el(
      'tr',
      { class: onRow ? 'clickable' : '' },
      el('td', {}, typeof c.ply === 'number' ? (c.ply ? moveLabel(startFen, c.ply) : t('ui.start')) : ''),
      el('td', {}, sideName(c.player)),
      el('td', {}, c.move ?? '—'),
      el('td', {}, rulingText(c)),
    );
    if (onRow && typeof c.ply === 'number') tr.addEventListener('click', () => onRow(c.ply as number));
    return tr;
  });
  return el('table', { 'data-testid': 'claims' }, el('thead', {}, head), el('tbody', {}, ...rows));
}

function renderPosition(rep: PositionReport): void {
  const out = $('analysis');
  show(rep.fen);
  if (rep.error) {
    out.append(el('p', { class: 'error' }, t('ui.err_fen', { detail: rep.error.message })));
    return;
  }
  if (rep.end) {
    out.append(rulingBox(rep.end, 'over'));
  } else {
    out.append(el('div', { class: 'ruling' }, t('ui.no_end')));
  }
  if (rep.claims.length) {
    out.append(el('h2', {}, t('ui.claimable')), claimsTable(rep.claims, rep.fen));
  }
  const mate = mateBox(rep);
  if (mate) out.append(mate);
}

/** Split a PGN file into games: a game starts at its first tag after the moves of the one before. */
export function splitGames(pgn: string): string[] {
  const games: string[][] = [];
  let inMoves = true;
  for (const line of pgn.split(/\r?\n/)) {
    const tag = /^\s*\[\w+\s+"/.test(line);
    if (tag && inMoves) games.push([]);
    if (!games.length) games.push([]);
    games[games.length - 1].push(line);
    if (line.trim()) inMoves = !tag;
  }
  return games.map((g) => g.join('\n')).filter((g) => g.trim().length > 0);
}

function positions(pgn: string): string[] | null {
  try {
    const chess = new Chess();
    chess.loadPgn(pgn);
    const moves = chess.history();
    const fen0 = chess.getHeaders().FEN ?? START;
    const replay = new Chess(fen0);
    const fens = [replay.fen()];
    for (const m of moves) {
      replay.move(m);
      fens.push(replay.fen());
    }
    return fens;
  } catch {
    return null;
  }
}

/** "Game 2 · Anna – Piotr · 1-0": a game of a PGN named as its tags say. */
function gameTitle(g: GameReport): string {
  const h = g.headers ?? {};
  return [t('ui.game_n', { n: g.game }), h.White && `${h.White} – ${h.Black ?? '?'}`, h.Result]
    .filter(Boolean)
    .join(' · ');
}

/** A PGN's games: one report at a time, picked in a list when there are several; the board follows. */
function renderGames(games: GameReport[], pgn: string): void {
  const texts = splitGames(pgn);
  const pick = $('game-pick') as HTMLSelectElement;
  const several = games.length > 1;
  $('game-pick-box').hidden = !several;
  pick.replaceChildren(...games.map((g, i) => el('option', { value: String(i) }, gameTitle(g))));
  const showGame = (i: number): void => {
    $('analysis').replaceChildren();
    renderGame(games[i], texts.length === games.length ? texts[i] : null);
  };
  pick.onchange = () => showGame(Number(pick.value));
  showGame(0);
}

function renderGame(g: GameReport, text: string | null): void {
  const out = $('analysis');
  {
    const fens = text === null ? null : positions(text);
    const title = gameTitle(g);
    const box = el('div', { class: 'report', 'data-testid': 'game' }, el('h2', {}, title));
    if (g.error) {
      const where = typeof g.error.ply === 'number' && g.error.ply > 0
        ? t('ui.err_pgn_at', { move: moveLabel(fens?.[0] ?? START, g.error.ply) })
        : t('ui.err_pgn');
      box.append(el('p', { class: 'error' }, `${where} ${g.error.message}`));
    }
    const flag = g.time_forfeit as Ruling | null | undefined;
    const tf = flag && typeof flag === 'object' && (flag.message || flag.explanation) ? flag : null;
    if (g.end) {
      box.append(rulingBox(g.end, 'over'));
    } else if (!g.error && !tf) {
      box.append(el('div', { class: 'ruling' }, t('ui.no_end')));
    }
    if (tf) {
      box.append(rulingBox(tf, 'over'));
      // the loss on time stands when the opponent can still mate: a line shows how
      const line = helpmateBox(tf.can_checkmate, fens?.[fens.length - 1] ?? START);
      if (line) box.append(line);
    }
    if (g.claims.length) {
      box.append(
        el('h2', {}, t('ui.claims_per_ply')),
        claimsTable(g.claims, fens?.[0] ?? START, fens ? (ply) => fens[ply] && show(fens[ply]) : undefined),
      );
    }
    out.append(box);
    if (fens) show(fens[fens.length - 1]);
  }
}

async function analyse(): Promise<void> {
  const text = ($('analyse-input') as HTMLTextAreaElement).value;
  lastInput = text;
  $('analysis').replaceChildren();
  $('game-pick-box').hidden = true;
  $('analysis-error').textContent = '';
  if (!text.trim()) {
    $('analysis-error').textContent = t('ui.err_empty_input');
    return;
  }
  const fen = looksLikeFen(text);
  if (!fen && !looksLikePgn(text)) {
    $('analysis-error').textContent = t('ui.err_neither');
    return;
  }
  try {
    if (fen) {
      renderPosition(await call<PositionReport>('POST', '/v1/position', { fen: text.trim(), quick: false }));
    } else {
      const rep = await call<{ games: GameReport[] }>('POST', '/v1/pgn', { pgn: text });
      renderGames(rep.games, text);
    }
  } catch (e) {
    $('analysis-error').textContent = fen && e instanceof ApiError && e.status === 422
      ? t('ui.err_fen', { detail: e.detail })
      : plainError(e);
  }
}

/** Redraw the last analysis (after a language switch). */
export function rerenderAnalysis(): void {
  if (lastInput && ($('analyse-input') as HTMLTextAreaElement).value === lastInput) void analyse();
}

export function setupAnalysis(): void {
  board = Chessground($('analysis-board'), { viewOnly: true, fen: START });
  // the board's size follows the page's width (and its tab being shown)
  new ResizeObserver(() => board.redrawAll()).observe($('analysis-board'));
  $('analyse-go').addEventListener('click', () => void analyse());
}

export function redrawBoard(): void {
  board.redrawAll();
}
