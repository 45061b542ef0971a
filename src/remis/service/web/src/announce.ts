// What a screen reader says without being asked: the opponent's move, "your
// move", low time, the end. One polite live region, outside the layout.

import { $ } from './dom';

let last = '';

/** Say `text` (again, even when it is the same as the last thing said). */
export function announce(text: string): void {
  const box = $('announcer');
  if (!text) return;
  box.textContent = text === last ? `${text} ` : text;
  last = box.textContent;
}
