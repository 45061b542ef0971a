// The new-game form: the time control as players write it (the server says
// in words what will be played and which FIDE class it is; a table of
// periods says the same in columns), where the game is played (online by
// default; over the board in the mode the FIDE Laws give that control, with
// only the options that mode has), one's side and the players' names.

import { call, type Created, type TimeControlView } from './api';
import { $, el } from './dom';
import { plainError } from './errors';
import { t } from './i18n';
import type { Role } from './mygames';
import { describeConfig, periodText, PRESETS, readControl } from './timecontrol';

/** A game the form created: its answer, the creator's role, its config and its control in words. */
export interface NewGame {
  created: Created;
  role: Role;
  config: Record<string, unknown>;
  tcText: string;
}

let view: TimeControlView | null = null;
let asked = 0;
let latest: Promise<void> = Promise.resolve();
/** the mode to choose once the control is read (a "new game" like the last one) */
let wanted: string | null = null;

const tcInput = (): HTMLInputElement => $('tc') as HTMLInputElement;
const modeSelect = (): HTMLSelectElement => $('mode') as HTMLSelectElement;

/** Ask the server to read the control in the field; the newest answer wins. */
function read(fromTable = false): Promise<void> {
  const text = tcInput().value;
  const n = ++asked;
  latest = readControl(text).then(
    (v) => {
      if (n !== asked) return;
      view = v;
      showControl(v, fromTable);
    },
    (e: unknown) => {
      if (n !== asked) return;
      view = null;
      showRefusal(plainError(e));
    },
  );
  return latest;
}

function showRefusal(text: string): void {
  const preview = $('tc-preview');
  preview.textContent = text;
  preview.classList.add('error-text');
  $('tc-class').textContent = '';
  tcInput().setAttribute('aria-invalid', 'true');
  markPreset();
}

function showControl(v: TimeControlView, fromTable: boolean): void {
  const preview = $('tc-preview');
  preview.textContent = v.description;
  preview.classList.remove('error-text');
  tcInput().setAttribute('aria-invalid', 'false');
  if (!fromTable) fillTable(v);
  const select = modeSelect();
  const before = wanted ?? select.value;
  wanted = null;
  select.replaceChildren(...v.modes.map((m) => el('option', { value: m.mode }, t(`ui.mode_${m.mode}`))));
  select.value = v.modes.some((m) => m.mode === before) ? before : 'online';
  $('first-move-note').textContent = t('ui.first_move_rule', { seconds: v.first_move_seconds });
  showMode();
  markPreset();
}

/** What the chosen mode means, and the options it has (and no others). */
function showMode(): void {
  const v = view;
  const mode = modeSelect().value;
  const option = v?.modes.find((m) => m.mode === mode);
  $('mode-meaning').textContent = option?.meaning ?? '';
  $('tc-class').textContent = v && mode !== 'online' ? v.classification : '';
  const supervision = !!option?.supervision;
  $('supervision-field').hidden = !supervision;
  const sup = ($('supervision') as HTMLSelectElement).value as 'full' | 'partial';
  $('supervision-meaning').textContent = supervision && v ? v.supervision[sup] : '';
  const quickplay = !!option?.quickplay_finish;
  $('quickplay-field').hidden = !quickplay;
  $('quickplay-meaning').textContent = quickplay && v ? v.quickplay : '';
  if (!quickplay) ($('quickplay') as HTMLInputElement).checked = false;
  $('draw-agreement-field').hidden = mode === 'online';
}

function markPreset(): void {
  const value = tcInput().value.trim();
  document.querySelectorAll<HTMLButtonElement>('#presets button').forEach((b) => {
    const chosen = b.textContent === value;
    b.classList.toggle('chosen', chosen);
    b.setAttribute('aria-pressed', String(chosen));
  });
}

// -- the table of periods ------------------------------------------------------

function cellInput(name: string, value: string, label: string, mode: string): HTMLInputElement {
  const input = el('input', { class: name, value, inputmode: mode, size: '4', 'aria-label': label, autocomplete: 'off' });
  input.addEventListener('input', fromTable);
  return input;
}

function periodRow(n: number, moves: string, minutes: string, increment: string): HTMLElement {
  const remove = el('button', { type: 'button', class: 'remove', 'aria-label': t('ui.period_remove', { n }) }, '×');
  remove.addEventListener('click', () => {
    const rows = $('tc-periods-body').children;
    if (rows.length <= 1) return;
    row.remove();
    const last = $('tc-periods-body').lastElementChild?.querySelector<HTMLInputElement>('input.p-moves');
    if (last) last.value = ''; // the last period is for the rest of the game
    fromTable();
  });
  const row = el('tr', {},
    el('td', {}, cellInput('p-moves', moves, t('ui.period_moves_label', { n }), 'numeric')),
    el('td', {}, cellInput('p-minutes', minutes, t('ui.period_minutes_label', { n }), 'decimal')),
    el('td', {}, cellInput('p-increment', increment, t('ui.period_increment_label', { n }), 'decimal')),
    el('td', {}, remove));
  return row;
}

function fillTable(v: TimeControlView): void {
  $('tc-periods-body').replaceChildren(...v.periods.map((p, i) =>
    periodRow(i + 1, p.moves === null ? '' : String(p.moves), String(p.minutes), String(p.increment))));
  $('tc-periods-box').hidden = v.periods.length === 0;
}

/** The table's periods written as players write them, into the field, and read. */
function fromTable(): void {
  const rows = Array.from($('tc-periods-body').querySelectorAll('tr'));
  const value = (row: Element, cls: string): string => (row.querySelector(`input.${cls}`) as HTMLInputElement).value;
  tcInput().value = rows.map((r) => periodText(value(r, 'p-moves'), value(r, 'p-minutes'), value(r, 'p-increment'))).join(', ');
  void read(true);
}

function addPeriod(): void {
  const body = $('tc-periods-body');
  const rows = Array.from(body.querySelectorAll('tr'));
  const last = rows[rows.length - 1];
  const moves = last?.querySelector<HTMLInputElement>('input.p-moves');
  if (moves && !moves.value.trim()) moves.value = '40';
  const inc = last?.querySelector<HTMLInputElement>('input.p-increment')?.value ?? '0';
  body.append(periodRow(rows.length + 1, '', '30', inc));
  fromTable();
}

// -- creating the game -------------------------------------------------------------

function value(id: string): string {
  return ($(id) as HTMLInputElement | HTMLSelectElement).value.trim();
}

/** The config of the game the form describes. */
function configOf(v: TimeControlView): Record<string, unknown> {
  const mode = modeSelect().value;
  const config: Record<string, unknown> = {
    time_control: v.time_control,
    mode,
    clock_start: 'first_move',
    flag_time: 'physical', // a page-made game's flag falls by itself
    first_move_seconds: v.first_move_seconds,
  };
  if (mode !== 'online') {
    if (!$('supervision-field').hidden && value('supervision') === 'partial') config.supervision = 'partial';
    if (!$('quickplay-field').hidden && ($('quickplay') as HTMLInputElement).checked) config.quickplay_finish = true;
    if (value('draw-agreement') !== 'allowed') config.draw_agreement = value('draw-agreement');
  }
  const players: Record<string, string> = {};
  for (const color of ['white', 'black']) {
    const name = value(`name-${color}`);
    if (name) players[color] = name;
  }
  if (Object.keys(players).length) config.players = players;
  const fen = value('start-fen');
  if (fen) config.start_fen = fen;
  return config;
}

async function submit(ev: Event, onCreated: (g: NewGame) => void): Promise<void> {
  ev.preventDefault();
  const errorBox = $('newgame-error');
  errorBox.textContent = '';
  await latest;
  const v = view;
  if (!v) {
    errorBox.textContent = $('tc-preview').textContent ?? '';
    tcInput().focus();
    return;
  }
  const config = configOf(v);
  const role = value('side') as Role;
  try {
    const created = await call<Created>('POST', '/v1/games', { config });
    onCreated({ created, role, config, tcText: v.text });
  } catch (e) {
    errorBox.textContent = plainError(e);
  }
}

/** Fill the form as for ``config`` (a new game like the last one). */
export async function prefill(config: Record<string, unknown>): Promise<void> {
  const names = (config.players ?? {}) as Record<string, string>;
  for (const color of ['white', 'black']) ($(`name-${color}`) as HTMLInputElement).value = names[color] ?? '';
  ($('start-fen') as HTMLInputElement).value = typeof config.start_fen === 'string' ? config.start_fen : '';
  wanted = typeof config.mode === 'string' ? config.mode : null;
  if (typeof config.time_control === 'string') {
    try {
      tcInput().value = (await describeConfig(config.time_control)).text;
    } catch {
      /* the field keeps what it had */
    }
  }
  await read();
}

/** Redraw the server's words in the page's language (after a language switch). */
export function rereadControl(): Promise<void> {
  return read();
}

export function setupNewGame(onCreated: (g: NewGame) => void): void {
  const presets = $('presets');
  for (const p of PRESETS) {
    const b = el('button', { type: 'button', 'aria-pressed': 'false' }, p);
    b.addEventListener('click', () => {
      tcInput().value = p;
      void read();
    });
    presets.append(b);
  }
  tcInput().addEventListener('input', () => void read());
  modeSelect().addEventListener('change', showMode);
  $('supervision').addEventListener('change', showMode);
  $('tc-add-period').addEventListener('click', addPeriod);
  $('newgame').addEventListener('submit', (ev) => void submit(ev, onCreated));
}
