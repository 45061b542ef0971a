// A line of moves to step through on a board (a helpmate line, however
// long): the moves numbered as players write them, buttons to the start,
// the previous, the next and the last move, the arrow keys while the line
// has the focus, and the current move highlighted.

import { el } from './dom';
import { t } from './i18n';
import { moveLabel } from './movelist';

export interface Step {
  fen: string;
  last?: [string, string];
}

/**
 * The stepper of a line: ``san[i]`` leads to ``steps[i]``; ``start`` is the
 * position before it. ``show`` puts a position on the board.
 */
export function lineStepper(
  start: string,
  san: string[],
  steps: Step[],
  show: (fen: string, last?: [string, string]) => void,
  label: string,
): HTMLElement {
  let at = 0; // 0: the start; i: after the i-th move
  let timer: number | undefined;
  const moves: HTMLButtonElement[] = san.map((m, i) => {
    const b = el('button', { type: 'button', class: 'line-move', 'data-index': String(i + 1) }, m);
    b.addEventListener('click', () => go(i + 1));
    return b;
  });
  // each move number stays on one line with its moves
  const items: HTMLElement[] = [];
  san.forEach((_, i) => {
    const number = moveLabel(start, i + 1);
    if (number.endsWith('.') || i === 0) items.push(el('span', { class: 'pair' }, el('span', { class: 'num' }, number)));
    items[items.length - 1].append(moves[i]);
  });
  const list = el('div', { class: 'line-moves', 'data-testid': 'line-moves' }, ...items);
  const status = el('span', { class: 'sr', 'aria-live': 'polite' });
  const go = (i: number): void => {
    at = Math.max(0, Math.min(san.length, i));
    if (at === 0) show(start);
    else show(steps[at - 1].fen, steps[at - 1].last);
    moves.forEach((b, j) => {
      const current = j + 1 === at;
      b.classList.toggle('current', current);
      if (current) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    });
    box.dataset.at = String(at);
    status.textContent = at ? `${moveLabel(start, at)} ${san[at - 1]}` : t('ui.line_start');
    const current = moves[at - 1];
    if (current) list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
  };
  const stop = (): void => {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
  };
  const nav = (id: string, text: string, labelKey: string, to: () => number): HTMLButtonElement => {
    const b = el('button', { type: 'button', 'data-step': id, 'aria-label': t(labelKey) }, text);
    b.addEventListener('click', () => {
      stop();
      go(to());
    });
    return b;
  };
  const play = el('button', { type: 'button', 'data-testid': 'play-line', class: 'play-line' }, t('ui.play_line'));
  play.addEventListener('click', () => {
    stop();
    go(0);
    timer = window.setInterval(() => (at >= san.length ? stop() : go(at + 1)), 700);
  });
  const box = el('div', { class: 'stepper', role: 'group', 'aria-label': label, tabindex: '0', 'data-testid': 'stepper' },
    el('div', { class: 'controls' },
      nav('first', '«', 'ui.nav_first', () => 0),
      nav('prev', '‹', 'ui.nav_prev', () => at - 1),
      nav('next', '›', 'ui.nav_next', () => at + 1),
      nav('last', '»', 'ui.nav_last', () => san.length),
      play),
    list, status);
  box.addEventListener('keydown', (ev) => {
    const keys: Record<string, () => number> = {
      ArrowLeft: () => at - 1, ArrowRight: () => at + 1, Home: () => 0, ArrowUp: () => 0,
      End: () => san.length, ArrowDown: () => san.length,
    };
    const to = keys[ev.key];
    if (!to) return;
    ev.preventDefault();
    stop();
    go(to());
  });
  box.dataset.at = '0';
  return box;
}
