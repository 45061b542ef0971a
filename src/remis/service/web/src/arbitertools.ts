// The arbiter's own acts, as an arbiter on a server has them: time added to
// a player, a result declared with its reason, a note in the log; and the
// players' requests to the arbiter, upheld or rejected. Shown only on the
// arbiter's page while the game goes on; what each does is the arbiter's
// (remis.arbiter.powers), with its article.

import type { GameState } from './api';
import { $, el } from './dom';
import { sideName, t } from './i18n';

/** Posts an event with the arbiter's token; true when it was accepted. */
export type Post = (event: Record<string, unknown>) => Promise<boolean>;

let declareAsked = 0;

/** Draw the tools; returns whether the arbiter's panel has anything to show. */
export function renderArbiterTools(st: GameState, isArbiter: boolean, deciding: boolean, post: Post): boolean {
  const open = isArbiter && !st.over;
  for (const id of ['add-time', 'declare', 'note']) $(id).hidden = !open;
  const requests = st.requests ?? [];
  $('requests-box').hidden = !open || requests.length === 0;
  $('requests').replaceChildren(...requests.map((r, i) => {
    const item = el('li', { 'data-player': r.player },
      t('ui.request_from', { player: sideName(r.player), kind: t(`ui.request_${r.kind}`) }));
    if (r.comment) item.append(' ', el('q', {}, r.comment));
    // the oldest first, and only when nothing of Guidelines III or 9.1.1 awaits
    if (i === 0 && !deciding) {
      const uphold = el('button', { type: 'button', id: 'request-uphold' }, t('ui.request_uphold'));
      const reject = el('button', { type: 'button', id: 'request-reject' }, t('ui.request_reject'));
      uphold.addEventListener('click', () => void post({ type: 'arbiter', decision: 'accept' }));
      reject.addEventListener('click', () => void post({ type: 'arbiter', decision: 'reject' }));
      item.append(el('div', { class: 'controls' }, uphold, reject));
    }
    return item;
  }));
  return open;
}

function value(id: string): string {
  return ($(id) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement).value.trim();
}

export function setupArbiterTools(post: Post): void {
  $('add-time-go').addEventListener('click', () => {
    void post({
      type: 'arbiter', decision: 'add_time', player: value('add-time-player'),
      seconds: Number(value('add-time-seconds')), kind: value('add-time-kind'),
    });
  });
  $('declare-go').addEventListener('click', () => {
    const b = $('declare-go');
    // a result ends the game: a second click within a few seconds confirms it
    if (Date.now() - declareAsked >= 4000) {
      declareAsked = Date.now();
      b.textContent = t('ui.declare_confirm');
      window.setTimeout(() => {
        if (Date.now() - declareAsked >= 4000) b.textContent = t('ui.declare_go');
      }, 4100);
      return;
    }
    declareAsked = 0;
    b.textContent = t('ui.declare_go');
    const comment = value('declare-comment');
    void post({
      type: 'arbiter', decision: 'declare', result: value('declare-result'), kind: value('declare-kind'),
      ...(comment ? { comment } : {}),
    });
  });
  $('note-go').addEventListener('click', () => {
    const text = value('note-text');
    if (!text) return;
    void post({ type: 'arbiter', decision: 'note', comment: text }).then((ok) => {
      if (ok) ($('note-text') as HTMLTextAreaElement).value = '';
    });
  });
}
