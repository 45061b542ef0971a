// The arbiter's controls: the decision on what awaits the arbiter (a
// Guidelines III.5 claim, a III.4 increment request, a draw offer that needs
// the arbiter's consent under Article 9.1.1) and an illegal move found later
// (7.5.1), chosen in the move list. Shown only on a page holding the
// arbiter's token, and only when they apply; the arbiter decides what they do.

import type { GameState, PlayedMove, Ruling } from './api';
import { $ } from './dom';
import { sideName, t } from './i18n';

export interface Awaiting {
  kind: 'quickplay' | 'increment' | 'draw_offer';
  player: string;
  article: string;
}

/** Posts an event with the arbiter's token. */
export type Post = (event: Record<string, unknown>) => void;

/** Button texts per kind: accept, postpone (null: not for this kind), reject. */
const LABELS: Record<Awaiting['kind'], [string, string | null, string]> = {
  quickplay: ['ui.quickplay_accept', 'ui.quickplay_postpone', 'ui.quickplay_reject'],
  increment: ['ui.increment_grant', null, 'ui.increment_refuse'],
  draw_offer: ['ui.consent_give', null, 'ui.consent_refuse'],
};

let selected: number | null = null;

/** The ply chosen in the move list (an illegal move standing on the board), if any. */
export function selectedPly(): number | null {
  return selected;
}

export function selectPly(ply: number | null): void {
  selected = ply;
}

/** The arbiter's last note on a III.5 claim (claimed, postponed, flag fell, decided). */
function lastQuickplay(st: GameState): Ruling | null {
  for (let i = st.log.length - 1; i >= 0; i--) {
    if ((st.log[i].message ?? '').startsWith('quickplay_')) return st.log[i];
  }
  return null;
}

/**
 * What the arbiter may decide now: what the state says awaits the arbiter, or a
 * III.5 claim whose decision was postponed (the game goes on meanwhile, and the
 * arbiter may still accept or reject it).
 */
function pending(st: GameState): { awaiting: Awaiting; postponed: boolean } | null {
  const awaiting = (st.awaiting_arbiter ?? null) as Awaiting | null;
  if (awaiting) return { awaiting, postponed: false };
  const last = lastQuickplay(st);
  if (last?.message !== 'quickplay_postponed') return null;
  const player = String(last.params?.player ?? '').toLowerCase();
  return { awaiting: { kind: 'quickplay', player, article: 'III.5' }, postponed: true };
}

/** Draw the decisions; returns whether a decision awaits and whether an illegal move can be found later. */
export function renderDecisions(
  st: GameState,
  isArbiter: boolean,
  moves: PlayedMove[],
  label: (ply: number) => string,
): { decide: boolean; findLater: boolean } {
  const open = pending(st);
  const awaiting = open?.awaiting ?? null;
  const standing = moves.filter((m) => m.standing);
  if (selected !== null && !standing.some((m) => m.ply === selected)) selected = null;
  const decide = isArbiter && !st.over && awaiting !== null;
  const findLater = isArbiter && !st.over && standing.length > 0 && !st.awaiting_arbiter;
  $('decision').hidden = !decide;
  $('found-later-box').hidden = !findLater;
  if (decide && awaiting) {
    const [accept, postpone, reject] = LABELS[awaiting.kind];
    const key = open?.postponed ? 'ui.postponed_quickplay' : `ui.awaiting_${awaiting.kind}`;
    $('awaiting').textContent = t(key, {
      player: sideName(awaiting.player),
      article: awaiting.article,
    });
    $('arbiter-accept').textContent = t(accept);
    $('arbiter-reject').textContent = t(reject);
    const pp = $('arbiter-postpone');
    // a postponed claim, or one whose claimant's flag has since fallen: accept or reject only
    pp.hidden = postpone === null || !!open?.postponed || lastQuickplay(st)?.message === 'quickplay_flag_pending';
    pp.textContent = postpone ? t(postpone) : '';
    $('seconds-field').hidden = awaiting.kind === 'draw_offer';
  }
  const button = $('found-later') as HTMLButtonElement;
  const chosen = standing.find((m) => m.ply === selected);
  button.disabled = !chosen;
  button.textContent = chosen
    ? t('ui.found_later', { number: label(chosen.ply), move: chosen.move, player: sideName(chosen.player) })
    : t('ui.found_later_none');
  return { decide, findLater };
}

export function setupDecisions(post: Post, moves: () => PlayedMove[]): void {
  const decide = (decision: string) => (): void => {
    const event: Record<string, unknown> = { type: 'arbiter', decision };
    const field = $('arbiter-seconds') as HTMLInputElement;
    if (!$('seconds-field').hidden && field.value.trim() !== '') event.seconds = Number(field.value);
    post(event);
  };
  $('arbiter-accept').addEventListener('click', decide('accept'));
  $('arbiter-postpone').addEventListener('click', decide('postpone'));
  $('arbiter-reject').addEventListener('click', decide('reject'));
  $('found-later').addEventListener('click', () => {
    const move = moves().find((m) => m.ply === selected && m.standing);
    if (!move) return;
    post({ type: 'illegal_move', player: move.player, ply: move.ply });
  });
}
