// How a ruling looks on the page: its explanation in the reader's language
// and the FIDE article it rests on.

import type { Ruling } from './api';
import { el } from './dom';
import { explain, t } from './i18n';

export function rulingBox(r: Ruling, cls = ''): HTMLElement {
  const box = el('div', { class: `ruling ${cls}`.trim(), 'data-testid': 'ruling' });
  if (r.result) box.append(el('strong', {}, `${r.result} `));
  box.append(el('span', { class: 'explanation' }, explain(r)));
  if (r.article) {
    box.append(el('span', { class: 'article', 'data-testid': 'article' }, t('ui.article', { article: r.article })));
  }
  return box;
}

/** A list item; the article is named only when the explanation does not already cite it. */
export function rulingItem(r: Ruling): HTMLElement {
  const text = explain(r);
  const li = el('li', {}, text);
  if (r.article && !text.includes(r.article)) {
    li.append(' ', el('em', {}, `(${t('ui.article', { article: r.article })})`));
  }
  return li;
}

export function clockText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '–';
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest.toFixed(1).padStart(4, '0')}`;
}
