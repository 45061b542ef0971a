// The promotion picker: four pieces over the promotion square's file, as on
// lichess; a click outside them takes the move back.

import type { Color } from './api';
import { el } from './dom';
import { t } from './i18n';

export type Promo = 'q' | 'n' | 'r' | 'b';

const ROLES: [Promo, string, string][] = [
  ['q', 'queen', 'ui.queen'],
  ['n', 'knight', 'ui.knight'],
  ['r', 'rook', 'ui.rook'],
  ['b', 'bishop', 'ui.bishop'],
];

/**
 * Ask which piece the pawn becomes; `file` 0..7 is the column on the board
 * as seen, `fromTop` whether the promotion rank is at the top of the board.
 */
export function pickPromotion(overlay: HTMLElement, color: Color, file: number, fromTop: boolean): Promise<Promo | null> {
  return new Promise((resolve) => {
    const done = (p: Promo | null): void => {
      overlay.hidden = true;
      overlay.replaceChildren();
      resolve(p);
    };
    const column = el('div', {
      class: 'promo-column',
      style: `left:${file * 12.5}%;${fromTop ? 'top:0' : 'bottom:0'}`,
    });
    for (const [code, role, key] of fromTop ? ROLES : [...ROLES].reverse()) {
      const piece = document.createElement('piece'); // chessground's own element, drawn by its piece set
      piece.className = `${role} ${color}`;
      const b = el('button', { type: 'button', class: 'promo', 'data-piece': code, title: t(key), 'aria-label': t(key) }, piece);
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        done(code);
      });
      column.append(b);
    }
    overlay.replaceChildren(column);
    overlay.hidden = false;
    overlay.onclick = () => done(null);
  });
}
