// The "Analyse" panel: paste a FEN or a PGN, see every ruling (stateless
// endpoints /v1/position and /v1/pgn), the claimable draws ply by ply, and a
// helpmate line played through on the board, or the reason none exists.

import { Chess } from 'chess.js';
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';

import { ApiError, call, type GameReport, type PositionReport, type Ruling } from './api';
import { $, el } from './dom';
import { sideName, t, translateParam } from './i18n';
import { findEvidence, lineFens, toLine, type Line } from './evidence';
import { moveLabel } from './movelist';
import { plainError } from './play';
import { rulingBox, rulingText } from './views';

let board: Api;
let timer: number | undefined;
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

function stopLine(): void {
  if (timer !== undefined) window.clearInterval(timer);
  timer = undefined;
}

function playLine(l: Line): void {
  stopLine();
  const steps = lineFens(l);
  show(l.fen);
  let i = 0;
  timer = window.setInterval(() => {
    if (i >= steps.length) return stopLine();
    show(steps[i].fen, steps[i].last);
    i += 1;
  }, 700);
}

function lineButton(l: Line): HTMLElement {
  const b = el('button', { 'data-testid': 'play-line', class: 'play-line' }, t('ui.play_line'));
  b.addEventListener('click', () => playLine(l));
  return b;
}

/** Evidence of a ruling: a helpmate line to play through on the board, or why none exists. */
function evidenceBox(r: Ruling, fen: string): HTMLElement | null {
  const found = findEvidence(r.evidence);
  if (found.line) {
    const l = toLine(fen, found.line);
    return el('p', { 'data-testid': 'helpmate' }, t('ui.helpmate_line', { line: l.san.join(' ') }), ' ', lineButton(l));
  }
  if (found.reason) {
    return el('p', { 'data-testid': 'no-helpmate' }, t('ui.no_helpmate', { reason: translateParam(found.reason) }));
  }
  return null;
}

type Side = 'white' | 'black';

/**
 * "Can this side still checkmate?" for both sides (remis position --json:
 * "can_checkmate" and "helpmate"): what a flag fall (6.9) turns on.
 */
function mateBox(rep: PositionReport): HTMLElement | null {
  const can = rep.can_checkmate as Record<Side, boolean | null> | undefined;
  if (!can || typeof can !== 'object') return null;
  const lines = (rep.helpmate ?? {}) as Record<Side, string[] | null>;
  const reasons = (rep.reasons ?? rep.reason ?? {}) as Record<Side, string | null> | string;
  const box = el('div', { class: 'mate', 'data-testid': 'can-checkmate' }, el('h2', {}, t('ui.flag_heading')));
  for (const side of ['white', 'black'] as Side[]) {
    const flagged = side === 'white' ? 'black' : 'white';
    const who = sideName(side);
    const p = el('p', { 'data-side': side }, el('strong', {}, `${t('ui.flag_of', { player: sideName(flagged) })} `));
    if (can[side] === true) {
      const uci = lines?.[side];
      if (uci && uci.length) {
        const l = toLine(rep.fen, uci);
        p.append(t('ui.can_mate_line', { player: who, line: l.san.join(' ') }), ' ', lineButton(l));
      } else {
        p.append(t('ui.can_mate', { player: who }));
      }
    } else if (can[side] === false) {
      const reason = typeof reasons === 'string' ? reasons : reasons?.[side];
      p.append(t('ui.cannot_mate', { player: who }));
      // a game-over ruling above gives the reasons already: each once
      if (reason && !rep.end) p.append(` (${translateParam(reason)})`);
    } else {
      p.append(t('ui.mate_unknown', { player: who }));
    }
    box.append(p);
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
    // the ruling gives the reason; a helpmate line (none in a dead position) would be news
    const ev = evidenceBox(rep.end, rep.fen);
    if (ev && ev.dataset.testid === 'helpmate') out.append(ev);
  } else {
    out.append(el('div', { class: 'ruling' }, t('ui.no_end')));
  }
  if (rep.claims.length) {
    out.append(el('h2', {}, t('ui.claimable')), claimsTable(rep.claims, rep.fen));
  }
  const mate = mateBox(rep);
  if (mate) out.append(mate);
}

/** Split a PGN file into games (at each [Event tag that starts a game). */
function splitGames(pgn: string): string[] {
  const parts = pgn.split(/\n\s*(?=\[Event\s)/);
  return parts.filter((p) => p.trim().length > 0);
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

function renderGames(games: GameReport[], pgn: string): void {
  const out = $('analysis');
  const texts = splitGames(pgn);
  games.forEach((g, i) => {
    const fens = texts.length === games.length ? positions(texts[i]) : null;
    const h = g.headers ?? {};
    const title = [t('ui.game_n', { n: g.game }), h.White && `${h.White} – ${h.Black ?? '?'}`, h.Result]
      .filter(Boolean)
      .join(' · ');
    const box = el('div', { class: 'game', 'data-testid': 'game' }, el('h2', {}, title));
    if (g.error) {
      const where = typeof g.error.ply === 'number' && g.error.ply > 0
        ? t('ui.err_pgn_at', { move: moveLabel(fens?.[0] ?? START, g.error.ply) })
        : t('ui.err_pgn');
      box.append(el('p', { class: 'error' }, `${where} ${g.error.message}`));
    }
    if (g.end) {
      box.append(rulingBox(g.end, 'over'));
      const fen = fens?.[g.end.ply ?? fens.length - 1] ?? START;
      const ev = evidenceBox(g.end, fen);
      if (ev) box.append(ev);
    } else if (!g.error) {
      box.append(el('div', { class: 'ruling' }, t('ui.no_end')));
    }
    const tf = g.time_forfeit as Ruling | null | undefined;
    if (tf && typeof tf === 'object' && (tf.message || tf.explanation)) {
      box.append(rulingBox(tf, 'over'));
      const fen = fens?.[tf.ply ?? fens.length - 1] ?? START;
      const ev = evidenceBox(tf, fen);
      if (ev) box.append(ev);
    }
    if (g.claims.length) {
      box.append(
        el('h2', {}, t('ui.claims_per_ply')),
        claimsTable(g.claims, fens?.[0] ?? START, fens ? (ply) => fens[ply] && show(fens[ply]) : undefined),
      );
    }
    out.append(box);
    if (i === 0 && fens) show(fens[fens.length - 1]);
  });
}

async function analyse(): Promise<void> {
  const text = ($('analyse-input') as HTMLTextAreaElement).value;
  lastInput = text;
  stopLine();
  $('analysis').replaceChildren();
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
