// The move list: the positions after each move (for stepping through the
// game on the board), and the list itself as players write it, numbered
// pairs "12. Nf3 Nc6", each move a button.

import { Chess, type Square } from 'chess.js';
import type { Key } from 'chessground/types';

import type { Color, PlayedMove } from './api';
import { el } from './dom';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export interface Position {
  fen: string;
  /** the move that led here, for the last-move highlight */
  last?: [Key, Key];
  /** who has the move here */
  turn: Color;
}

/** Play `uci` on `fen` whether legal or not (an illegal move that stood, 7.5.1). */
function forced(fen: string, uci: string): string {
  const chess = new Chess(fen, { skipValidation: true });
  const from = uci.slice(0, 2) as Square;
  const to = uci.slice(2, 4) as Square;
  const piece = chess.get(from);
  if (piece) {
    chess.remove(from);
    const promo = uci[4] as 'q' | 'r' | 'b' | 'n' | undefined;
    chess.put(promo ? { type: promo, color: piece.color } : piece, to);
  }
  return flipTurn(chess.fen(), piece?.color === 'b');
}

/** The FEN with the other side to move and no en passant square. */
function flipTurn(fen: string, fullmoveUp: boolean): string {
  const f = fen.split(' ');
  f[1] = f[1] === 'w' ? 'b' : 'w';
  f[3] = '-';
  if (fullmoveUp) f[5] = String(Number(f[5]) + 1);
  return f.join(' ');
}

/** Position 0 is the start; position i follows move i. */
export function positions(startFen: string, moves: PlayedMove[]): Position[] {
  const turnOf = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');
  const out: Position[] = [{ fen: startFen, turn: turnOf(startFen) }];
  let fen = startFen;
  for (const m of moves) {
    let last: [Key, Key] | undefined;
    if (m.move === '--') {
      fen = flipTurn(fen, turnOf(fen) === 'black');
    } else if (m.standing || /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(m.move)) {
      last = [m.move.slice(0, 2) as Key, m.move.slice(2, 4) as Key];
      try {
        const chess = new Chess(fen, { skipValidation: true });
        const done = chess.move({ from: last[0], to: last[1], promotion: m.move[4] });
        fen = chess.fen();
        last = [done.from as Key, done.to as Key];
      } catch {
        fen = forced(fen, m.move);
      }
    } else {
      try {
        const chess = new Chess(fen, { skipValidation: true });
        const done = chess.move(m.move);
        fen = chess.fen();
        last = [done.from as Key, done.to as Key];
      } catch {
        break; // a move this board cannot follow: the list stops being drawn here
      }
    }
    out.push({ fen, last, turn: turnOf(fen) });
  }
  return out;
}

/** The number of the first move and whether Black makes it (a game set up with Black to move). */
function firstMove(startFen: string): { number: number; black: boolean } {
  const f = startFen.split(' ');
  return { number: Number(f[5]) || 1, black: f[1] === 'b' };
}

/** "12." for White's 12th move, "12…" for Black's: how players name a move. */
export function moveLabel(startFen: string, ply: number): string {
  const { number, black } = firstMove(startFen);
  const index = ply - 1 + (black ? 1 : 0);
  return `${number + Math.floor(index / 2)}${index % 2 === 0 ? '.' : '…'}`;
}

export interface ListOptions {
  startFen: string;
  moves: PlayedMove[];
  /** the ply shown on the board */
  shown: number;
  onPick: (ply: number) => void;
  /** extra classes and a title for a move (e.g. an illegal move that stands) */
  decorate?: (m: PlayedMove) => { cls?: string; title?: string };
}

/** The list as rows "n. white black". */
export function renderList(box: HTMLElement, o: ListOptions): void {
  const { number, black } = firstMove(o.startFen);
  const rows: HTMLElement[] = [];
  let row: HTMLElement | null = null;
  const cell = (m: PlayedMove): HTMLElement => {
    const extra = o.decorate?.(m) ?? {};
    const attrs: Record<string, string> = {
      type: 'button',
      class: `move${m.standing ? ' standing' : ''}${extra.cls ? ` ${extra.cls}` : ''}${
        m.ply === o.shown ? ' current' : ''}`,
      'data-ply': String(m.ply),
    };
    if (extra.title) attrs.title = extra.title;
    const b = el('button', attrs, m.move);
    b.addEventListener('click', () => o.onPick(m.ply));
    return b;
  };
  o.moves.forEach((m, i) => {
    const index = i + (black ? 1 : 0);
    if (index % 2 === 0 || row === null) {
      row = el('div', { class: 'row' }, el('span', { class: 'num' }, `${number + Math.floor(index / 2)}.`));
      if (index % 2 === 1) row.append(el('span', { class: 'move empty' }, '…'));
      rows.push(row);
    }
    row.append(cell(m));
  });
  box.replaceChildren(...rows);
  // keep the shown move in view inside the list (not by scrolling the page)
  const current = box.querySelector<HTMLElement>('.current');
  if (current) {
    const top = current.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - current.offsetHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
  }
}
