// The "Analyse" panel: paste a FEN or a PGN, see every ruling (stateless
// endpoints /v1/position and /v1/pgn), the claimable draws ply by ply, and a
// helpmate line played through on the board, or the reason none exists.

import { Chess } from 'chess.js';
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';

import { call, type GameReport, type PositionReport, type Ruling } from './api';
import { $, el } from './dom';
import { explain, sideName, t } from './i18n';
import { findEvidence, lineFens, toLine, type Line } from './evidence';
import { rulingBox } from './views';

let board: Api;
let line: Line | null = null;
let timer: number | undefined;
let lastInput = '';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export function looksLikeFen(text: string): boolean {
  const lines = text.trim().split('\n');
  return lines.length === 1 && /^[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}\s+[wb]\b/.test(lines[0]);
}

function show(fen: string, last?: [string, string]): void {
  board.set({ fen, lastMove: last as Key[] | undefined });
}

function stopLine(): void {
  if (timer !== undefined) window.clearInterval(timer);
  timer = undefined;
}

function playLine(): void {
  if (!line) return;
  stopLine();
  const steps = lineFens(line);
  show(line.fen);
  let i = 0;
  timer = window.setInterval(() => {
    if (i >= steps.length) return stopLine();
    show(steps[i].fen, steps[i].last);
    i += 1;
  }, 700);
}

/** Evidence of a ruling: offer the helpmate line on the board, or say why none exists. */
function evidenceBox(r: Ruling, fen: string): HTMLElement | null {
  const found = findEvidence(r.evidence);
  if (found.line) {
    line = toLine(fen, found.line);
    $('play-line').hidden = false;
    return el('p', { 'data-testid': 'helpmate' }, t('ui.helpmate_line', { line: line.san.join(' ') }));
  }
  if (found.reason) {
    return el('p', { 'data-testid': 'no-helpmate' }, t('ui.no_helpmate', { reason: found.reason }));
  }
  return null;
}

function claimsTable(claims: Ruling[], onRow?: (ply: number) => void): HTMLElement {
  const head = el(
    'tr',
    {},
    el('th', {}, t('ui.ply')),
    el('th', {}, t('ui.player')),
    el('th', {}, t('ui.move')),
    el('th', {}, t('ui.explanation')),
  );
  const rows = claims.map((c) => {
    const tr = el(
      'tr',
      { class: onRow ? 'clickable' : '' },
      el('td', {}, String(c.ply ?? '')),
      el('td', {}, sideName(c.player)),
      el('td', {}, c.move ?? '—'),
      el('td', {}, explain(c), ' ', el('em', {}, `(${t('ui.article', { article: c.article ?? '' })})`)),
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
    out.append(el('p', { class: 'error' }, t('ui.error', { detail: rep.error.message })));
    return;
  }
  if (rep.end) {
    out.append(rulingBox(rep.end, 'over'));
    const ev = evidenceBox(rep.end, rep.fen);
    if (ev) out.append(ev);
  } else {
    out.append(el('div', { class: 'ruling' }, t('ui.no_end')));
  }
  if (rep.claims.length) {
    out.append(el('h2', {}, t('ui.claimable')), claimsTable(rep.claims));
  }
  for (const key of Object.keys(rep)) {
    // verdicts the engines may add beside "end" (e.g. who can still mate after a flag fall)
    const v = rep[key] as Ruling | null;
    if (!['fen', 'end', 'claims', 'error'].includes(key) && v && typeof v === 'object') {
      const ev = evidenceBox({ evidence: v as Record<string, unknown> }, rep.fen);
      if (ev) out.append(ev);
    }
  }
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
    if (g.error) box.append(el('p', { class: 'error' }, t('ui.error', { detail: g.error.message })));
    if (g.end) {
      box.append(rulingBox(g.end, 'over'));
      const fen = fens?.[g.end.ply ?? fens.length - 1] ?? START;
      const ev = evidenceBox(g.end, fen);
      if (ev) box.append(ev);
    } else {
      box.append(el('div', { class: 'ruling' }, t('ui.no_end')));
    }
    if (g.claims.length) {
      box.append(
        el('h2', {}, t('ui.claims_per_ply')),
        claimsTable(g.claims, fens ? (ply) => fens[ply] && show(fens[ply]) : undefined),
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
  line = null;
  $('play-line').hidden = true;
  $('analysis').replaceChildren();
  $('analysis-error').textContent = '';
  if (!text.trim()) return;
  try {
    if (looksLikeFen(text)) {
      renderPosition(await call<PositionReport>('POST', '/v1/position', { fen: text.trim(), quick: false }));
    } else {
      const rep = await call<{ games: GameReport[] }>('POST', '/v1/pgn', { pgn: text });
      renderGames(rep.games, text);
    }
  } catch (e) {
    $('analysis-error').textContent = t('ui.error', { detail: e instanceof Error ? e.message : String(e) });
  }
}

/** Redraw the last analysis (after a language switch). */
export function rerenderAnalysis(): void {
  if (lastInput && ($('analyse-input') as HTMLTextAreaElement).value === lastInput) void analyse();
}

export function setupAnalysis(): void {
  board = Chessground($('analysis-board'), { viewOnly: true, fen: START });
  $('analyse-go').addEventListener('click', () => void analyse());
  $('play-line').addEventListener('click', playLine);
}

export function redrawBoard(): void {
  board.redrawAll();
}
