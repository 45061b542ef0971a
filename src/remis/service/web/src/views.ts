// How a ruling looks on the page: its explanation in the reader's language,
// citing the FIDE article it rests on once (the explanation usually names
// it; when it does not, the article is added after it).

import type { Ruling } from './api';
import { el } from './dom';
import { explain, t } from './i18n';

/** The ruling's sentence, with its article appended only when the sentence lacks it. */
export function rulingText(r: Ruling): string {
  const text = explain(r);
  if (!r.article || text.includes(r.article)) return text;
  const cite = `(${t('ui.article', { article: r.article })})`;
  return text.endsWith('.') ? `${text.slice(0, -1)} ${cite}.` : `${text} ${cite}`;
}

export function rulingBox(r: Ruling, cls = ''): HTMLElement {
  const box = el('div', { class: `ruling ${cls}`.trim(), 'data-testid': 'ruling' });
  if (r.result) box.append(el('strong', { class: 'result' }, `${resultText(r.result)} `));
  box.append(el('span', { class: 'explanation' }, rulingText(r)));
  return box;
}

/** A log entry; the words a player or the arbiter wrote with it follow in quotes. */
export function rulingItem(r: Ruling): HTMLElement {
  const item = el('li', {}, rulingText(r));
  const comment = r.params?.comment;
  if (typeof comment === 'string' && comment) item.append(' ', el('q', {}, comment));
  return item;
}

/** "½–½" as players write a draw; a cancelled game has no result. */
export function resultText(result: string): string {
  if (result === '*') return '–';
  return result === '1/2-1/2' ? '½–½' : result.replace('-', '–');
}
