// The "Play" panel: a new-game form and the list of one's games, or a live
// game seen as one role (White, Black, the arbiter, a spectator). A page acts
// only as its role and shows only what that role may do now; every action is
// an event posted to the arbiter through the HTTP API, and the arbiter's
// state is drawn back (from the answer and from the game's event stream).

import { Chess, type Square } from 'chess.js';
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Dests, Key } from 'chessground/types';

import {
  ApiError,
  call,
  newId,
  type Color,
  type Created,
  type GameState,
  type GameView,
  type PlayedMove,
  type Ruling,
} from './api';
import { Clocks, clockText } from './clock';
import { renderDecisions, selectedPly, selectPly, setupDecisions } from './decisions';
import { $, el } from './dom';
import { sideName, t } from './i18n';
import { linkFor, remember, savedGames, type Role } from './mygames';
import { moveLabel, positions, renderList, START_FEN, type Position } from './movelist';
import { pickPromotion } from './promotion';
import { follow as followStream } from './stream';
import { describeTimeControl, parseTimeControl, PRESETS } from './timecontrol';
import { resultText, rulingItem, rulingText } from './views';

interface Game {
  id: string;
  role: Role;
  /** the tokens this page holds (the creator's page holds all four, to share them) */
  tokens: Partial<Record<Role, string>>;
  config: Record<string, unknown>;
  state: GameState;
  moves: PlayedMove[];
  positions: Position[];
  /** number of events the move list was read after */
  movesAt: number;
  /** number of the last accepted event drawn */
  event: number;
  /** the ruling log (GET /v1/games/{id}/events, then each state's ``rulings``) */
  log: Ruling[];
  /** number of events the log covers */
  logAt: number;
  stream: (() => void) | null;
  /** the flag this page has already reported (online: the server rules at once) */
  flagSent: string | null;
}

const ROLES: Role[] = ['white', 'black', 'arbiter', 'spectator'];
const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');
const LOW_TIME = 20;

let game: Game | null = null;
let board: Api;
const clocks = new Clocks();
/** the ply shown on the board while stepping through the moves; null: the live position */
let shown: number | null = null;
let flipped = false;
let claimMode = false;
let unnoticedMode = false;
let busy = false;
/** clocks seen at zero, so that the page redraws once when a flag falls */
let zeroSeen = '';

function startFen(g: Game): string {
  const fen = g.config.start_fen;
  return typeof fen === 'string' && fen ? fen : START_FEN;
}

function isPlayer(g: Game): g is Game & { role: Color } {
  return g.role === 'white' || g.role === 'black';
}

function online(g: Game): boolean {
  return g.config.mode === 'online';
}

// -- errors in words a player reads ------------------------------------------

/** A failed request in plain words: what went wrong and what to do. */
export function plainError(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 0) return t('ui.err_network');
    if (e.status === 401 && /missing token/.test(e.detail)) return t('ui.err_link_incomplete');
    if (e.status === 401) return t('ui.err_link_wrong');
    if (e.status === 404 && /no game/.test(e.detail)) return t('ui.err_no_game');
    if (e.status === 503) return t('ui.err_busy');
    return t('ui.refused', { detail: e.detail });
  }
  return e instanceof Error ? e.message : String(e);
}

function showError(text: string): void {
  $('error').textContent = text;
}

function pageError(text: string): void {
  const box = $('page-error');
  box.textContent = text;
  box.hidden = !text;
}

function connection(lost: boolean): void {
  const box = $('connection');
  box.hidden = !lost;
  box.textContent = lost ? t('ui.connection_lost') : '';
}

// -- posting events ----------------------------------------------------------

/** Post an event with this page's own token. */
async function post(event: Record<string, unknown>): Promise<boolean> {
  const g = game;
  if (!g || busy) return false;
  const token = g.tokens[g.role];
  if (!token || g.role === 'spectator') return false;
  busy = true;
  showError('');
  try {
    const res = await call<{ state: GameState; event: number }>(
      'POST',
      `/v1/games/${g.id}/events`,
      { ...event, id: newId() },
      token,
    );
    connection(false);
    setState(res.state, res.event);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 0) connection(true);
    showError(plainError(e));
    render(); // a refused move goes back, with its highlight
    return false;
  } finally {
    busy = false;
  }
}

/** Draw a new state (our own answer, or one from the stream) unless the page has it already. */
function setState(state: GameState, event: number, ranAlready = 0): void {
  const g = game;
  // the stream repeats the answer to our own event: its clocks would step back by the delay
  if (!g || event <= g.event) return;
  g.event = event;
  g.state = state;
  if (event === g.logAt + 1) {
    g.log.push(...(state.rulings ?? []));
    g.logAt = event;
  } else if (event > g.logAt) void refreshLog();
  clocks.set(state.clocks, state.clock?.running ?? null, ranAlready);
  if (state.over) {
    remember({ id: g.id, role: g.role, tokens: g.tokens, created: Date.now(),
      timeControl: String(g.config.time_control ?? ''), result: state.result });
  }
  render();
  void refreshMoves();
}

/** The ruling log, read page by page from where the page's copy ends. */
async function refreshLog(): Promise<void> {
  const g = game;
  if (!g) return;
  try {
    for (;;) {
      const page = await call<{ log: Ruling[]; after: number; last: number; total: number }>(
        'GET', `/v1/games/${g.id}/events?after=${g.logAt}`, undefined, g.tokens[g.role]);
      if (page.after !== g.logAt) return; // overtaken by a newer answer
      g.log.push(...page.log);
      g.logAt = page.last;
      if (page.last >= page.total) break;
    }
    if (game === g) render();
  } catch {
    /* read again with the next event */
  }
}

/** The moves on the arbiter's board (illegal moves that stand included, cancelled ones not). */
async function refreshMoves(): Promise<void> {
  const g = game;
  const token = g && (g.tokens[g.role] ?? Object.values(g.tokens)[0]);
  if (!g || !token) return;
  try {
    const res = await call<{ moves: PlayedMove[]; event: number }>('GET', `/v1/games/${g.id}/moves`, undefined, token);
    if (res.event < g.movesAt) return; // an older answer overtaken by a newer one
    const live = shown === null || shown >= g.moves.length;
    g.moves = res.moves;
    g.movesAt = res.event;
    g.positions = positions(startFen(g), g.moves);
    if (live) shown = null;
    if (game === g) render();
  } catch {
    /* the list is a convenience; the state is what counts */
  }
}

/** Follow the game's event stream; its first message after each (re)connect is the current state. */
function follow(g: Game): void {
  g.stream?.();
  const token = g.tokens[g.role];
  if (!token) return;
  let first = true;
  g.stream = followStream(
    `/v1/games/${g.id}/stream`,
    token,
    (id, data) => {
      if (game !== g) return g.stream?.();
      connection(false);
      const state = JSON.parse(data) as GameState;
      if (!first) return setState(state, id);
      first = false;
      if (id < g.event) return;
      const clock = g.state.clock;
      if (clock && state.clock && clock.at === state.clock.at && clock.running === state.clock.running) {
        // the state the page has: keep its clocks, which know how long they have run
        g.event = id;
        g.state = state;
        render();
        void refreshMoves();
        return;
      }
      setState(state, id);
      void resyncClocks(g);
    },
    1000,
    (up) => {
      if (game !== g) return;
      connection(!up);
      if (!up) first = true;
    },
  );
}

/** Ask the server how long the running clock has run since the state's time. */
async function resyncClocks(g: Game): Promise<void> {
  try {
    const view = await call<GameView>('GET', `/v1/games/${g.id}`, undefined, g.tokens[g.role]);
    const at = g.state.clock?.at;
    if (game === g && view.state.clock?.at === at) {
      clocks.set(g.state.clocks, g.state.clock?.running ?? null, ranSince(view));
    }
  } catch {
    /* the stream reconnects by itself */
  }
}

function ranSince(view: GameView): number {
  const at = view.state.clock?.at;
  return typeof view.now === 'number' && typeof at === 'number' ? view.now - at : 0;
}

// -- opening games -----------------------------------------------------------

function openGame(g: Game, ranAlready: number): void {
  game?.stream?.();
  game = g;
  shown = null;
  flipped = false;
  zeroSeen = '';
  selectPly(null);
  setClaimMode(false);
  setUnnoticedMode(false);
  clocks.set(g.state.clocks, g.state.clock?.running ?? null, ranAlready);
  document.body.dataset.game = g.id;
  document.body.dataset.role = g.role;
  $('lobby').hidden = true;
  $('game').hidden = false;
  showError('');
  pageError('');
  render();
  board.redrawAll();
  follow(g);
  void refreshMoves();
  void refreshLog();
}

/** Open the game of a link ``#game=ID&as=ROLE&token=…``. */
export async function join(hash: string): Promise<void> {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const id = q.get('game');
  if (!id) return;
  const role = q.get('as') as Role | null;
  const token = q.get('token');
  if (!token || !role || !ROLES.includes(role)) {
    pageError(t('ui.err_link_incomplete'));
    showLobby();
    return;
  }
  if (game && game.id === id && game.role === role) return;
  try {
    const view = await call<GameView>('GET', `/v1/games/${id}`, undefined, token);
    const saved = savedGames().find((s) => s.id === id);
    const tokens = { ...(saved?.tokens ?? {}), [role]: token };
    remember({ id, role, tokens, created: saved?.created ?? Date.now(),
      timeControl: String(view.config.time_control ?? ''), result: view.state.over ? view.state.result : null });
    openGame({
      id, role, tokens, config: view.config, state: view.state, moves: [], positions: positions(
        typeof view.config.start_fen === 'string' ? view.config.start_fen : START_FEN, []),
      movesAt: 0, event: 0, log: [], logAt: 0, stream: null, flagSent: null,
    }, ranSince(view));
  } catch (e) {
    pageError(plainError(e));
    showLobby();
  }
}

function showLobby(): void {
  game?.stream?.();
  game = null;
  delete document.body.dataset.game;
  $('lobby').hidden = false;
  $('game').hidden = true;
  document.title = 'remis';
  renderMyGames();
}

async function newGame(ev: Event): Promise<void> {
  ev.preventDefault();
  const errorBox = $('newgame-error');
  errorBox.textContent = '';
  const tc = parseTimeControl(($('tc') as HTMLInputElement).value);
  if (!tc) {
    errorBox.textContent = t('ui.err_time_control');
    return;
  }
  const config: Record<string, unknown> = {
    time_control: tc.pgn,
    mode: ($('mode') as HTMLSelectElement).value,
    clock_start: 'first_move',
  };
  const fen = ($('start-fen') as HTMLInputElement).value.trim();
  if (fen) config.start_fen = fen;
  const agreement = ($('draw-agreement') as HTMLSelectElement).value;
  if (agreement !== 'allowed') config.draw_agreement = agreement;
  if (($('quickplay') as HTMLInputElement).checked) config.quickplay_finish = true;
  const role = ($('side') as HTMLSelectElement).value as Role;
  try {
    const created = await call<Created>('POST', '/v1/games', { config });
    remember({ id: created.id, role, tokens: created.tokens, created: Date.now(), timeControl: tc.pgn });
    const token = created.tokens[role as keyof Created['tokens']];
    history.replaceState(null, '', `/#game=${created.id}&as=${role}&token=${token}`);
    pageError('');
    openGame({
      id: created.id, role, tokens: created.tokens, config, state: created.state, moves: [],
      positions: positions(fen || START_FEN, []), movesAt: 0, event: 0, log: [], logAt: 0, stream: null, flagSent: null,
    }, 0);
  } catch (e) {
    errorBox.textContent = e instanceof ApiError && e.status === 422
      ? t('ui.err_config', { detail: e.detail.replace(/^config: /, '') })
      : plainError(e);
  }
}

// -- the board -----------------------------------------------------------------

function dests(fen: string): Dests {
  const out: Dests = new Map();
  for (const m of new Chess(fen).moves({ verbose: true })) {
    const list = out.get(m.from as Key) ?? [];
    list.push(m.to as Key);
    out.set(m.from as Key, list);
  }
  return out;
}

function orientation(g: Game): Color {
  const own: Color = g.role === 'black' ? 'black' : 'white';
  return flipped ? other(own) : own;
}

async function onBoardMove(orig: Key, dest: Key): Promise<void> {
  const g = game;
  if (!g) return;
  const st = g.state;
  if (unnoticedMode) {
    // any move of the side to move, in UCI; the arbiter refuses one that is legal
    setUnnoticedMode(false);
    void post({ type: 'illegal_move', player: st.to_move, move: `${orig}${dest}`, called_by: 'nobody' });
    return;
  }
  const chess = new Chess(st.fen);
  const piece = chess.get(orig as Square);
  let promotion: string | undefined;
  if (piece?.type === 'p' && (dest[1] === '8' || dest[1] === '1')) {
    const view = orientation(g);
    const file = dest.charCodeAt(0) - 97;
    const picked = await pickPromotion($('promotion'), st.to_move, view === 'white' ? file : 7 - file,
      (dest[1] === '8') === (view === 'white'));
    if (!picked) return render();
    promotion = picked;
  }
  let san: string;
  try {
    san = chess.move({ from: orig, to: dest, promotion }).san;
  } catch {
    return render();
  }
  const player = st.to_move;
  if (claimMode) {
    setClaimMode(false);
    void post({ type: 'claim', player, kind: claimKind(san), move: san });
    render(); // the intended move is written, not played
    return;
  }
  void post({ type: 'move', player, move: san });
}

/** The claim's kind: that of a claimable draw with this move, else the one chosen. */
function claimKind(move: string | null): string {
  const match = game?.state.claimable.find((c) => (c.move ?? null) === move);
  return match?.kind ?? ($('claim-kind') as HTMLSelectElement).value;
}

function setClaimMode(on: boolean): void {
  claimMode = on;
  $('claim-banner').hidden = !on;
  if (on) setUnnoticedMode(false);
}

function setUnnoticedMode(on: boolean): void {
  unnoticedMode = on;
  $('unnoticed-banner').hidden = !on;
  if (on) setClaimMode(false);
  if (game) render();
}

/** Show the position after ``ply`` (null: the live position). */
function showPly(ply: number | null): void {
  const g = game;
  if (!g) return;
  const last = g.positions.length - 1;
  shown = ply === null || ply >= last ? null : Math.max(0, ply);
  render();
}

function renderBoard(g: Game): void {
  const st = g.state;
  const live = shown === null;
  const pos = live ? g.positions[g.positions.length - 1] : g.positions[shown as number];
  const fen = live ? st.fen : pos.fen;
  const myTurn = isPlayer(g) && st.to_move === g.role && !st.over && !st.awaiting_arbiter;
  const canMove = live && (myTurn || (unnoticedMode && g.role === 'arbiter'));
  const chess = new Chess(fen, { skipValidation: true });
  const lastMove = live ? g.positions[g.moves.length]?.last : pos?.last;
  board.set({
    fen,
    orientation: orientation(g),
    turnColor: live ? st.to_move : pos.turn,
    lastMove,
    check: chess.inCheck() ? (live ? st.to_move : pos.turn) : false,
    movable: unnoticedMode && live
      ? { free: true, color: st.to_move }
      : { free: false, color: canMove ? st.to_move : undefined, dests: canMove ? dests(fen) : new Map() },
  });
  $('board').dataset.fen = fen;
  document.body.dataset.shown = String(live ? st.ply : shown);
}

// -- drawing the page ------------------------------------------------------------

function renderClocks(): void {
  const g = game;
  if (!g) return;
  const bottom = orientation(g);
  const zero: string[] = [];
  for (const [slot, color] of [['top', other(bottom)], ['bottom', bottom]] as const) {
    const bar = $(`player-${slot}`);
    const left = clocks.left(color);
    const face = bar.querySelector('.clock') as HTMLElement;
    face.textContent = clockText(left);
    face.dataset.color = color;
    bar.classList.toggle('running', clocks.runs(color));
    bar.classList.toggle('low', left !== null && left < LOW_TIME && left > 0);
    bar.classList.toggle('flagged', left === 0);
    if (left === 0) zero.push(color);
  }
  const seen = `${g.event}:${zero.join(',')}`;
  if (zero.length && seen !== zeroSeen) {
    zeroSeen = seen;
    renderActions(g); // a flag fell: its claim is offered at once
    autoFlag(g, zero);
  }
}

/** Online the server's clock is the clock: a page that may report a fallen flag does so at once (6.9). */
function autoFlag(g: Game, zero: string[]): void {
  if (!online(g) || g.state.over) return;
  for (const color of zero as Color[]) {
    const mayReport = g.role === 'arbiter' || g.role === other(color);
    const key = `${g.event}:${color}`;
    if (mayReport && g.flagSent !== key && clocks.runs(color)) {
      g.flagSent = key;
      void post({ type: 'flag', player: color }).then((ok) => {
        if (ok || g.flagSent !== key) return;
        // busy with another event, or the server's clock a hair behind: again in a second
        window.setTimeout(() => {
          g.flagSent = null;
          zeroSeen = '';
        }, 1000);
      });
    }
  }
}

function renderPlayers(g: Game): void {
  const bottom = orientation(g);
  for (const [slot, color] of [['top', other(bottom)], ['bottom', bottom]] as const) {
    const bar = $(`player-${slot}`);
    (bar.querySelector('.name') as HTMLElement).textContent = sideName(color);
    bar.dataset.color = color;
    bar.classList.toggle('to-move', !g.state.over && g.state.to_move === color);
  }
  renderClocks();
}

function button(id: string, label: string, onClick: () => void, cls = ''): HTMLButtonElement {
  const b = el('button', { id, type: 'button', class: cls }, label);
  b.addEventListener('click', onClick);
  return b;
}

/** The actions this page's role may take now, and nothing else. */
function renderActions(g: Game): void {
  const st = g.state;
  const box = $('actions');
  const buttons: HTMLElement[] = [];
  const over = st.over;
  const stopped = !!st.awaiting_arbiter;
  const otb = !online(g);
  let claims = false;
  if (isPlayer(g) && !over) {
    const me = g.role;
    const opp = other(me);
    const onMove = st.to_move === me;
    if (st.pending_offer === opp) {
      buttons.push(button('accept-draw', t('ui.accept_draw'), () => void post({ type: 'accept_draw', player: me }), 'primary'));
      buttons.push(button('decline-draw', t('ui.decline_draw'), () => void post({ type: 'decline_draw', player: me })));
    } else if (st.pending_offer !== me && !stopped) {
      buttons.push(button('offer-draw', t('ui.offer_draw'), () => void post({ type: 'offer_draw', player: me })));
    }
    if (onMove && !stopped) {
      for (const c of st.claimable) {
        const label = c.move
          ? t('ui.claim_with', { move: c.move, article: c.article ?? '' })
          : t('ui.claim_on_board', { article: c.article ?? '' });
        buttons.push(button(`claim-${c.article}-${c.move ?? 'board'}`, label,
          () => void post({ type: 'claim', player: me, kind: c.kind, ...(c.move ? { move: c.move } : {}) }), 'primary claim'));
      }
      claims = true;
    }
    if (clocks.left(opp) === 0 && !stopped) {
      buttons.push(button('flag', t('ui.claim_flag', { player: sideName(opp) }),
        () => void post({ type: 'flag', player: opp }), 'primary'));
    }
    if (otb && !stopped) {
      if (onMove) buttons.push(button('touch', t('ui.touch'), () => void post({ type: 'touch', player: me })));
      else if (g.moves.length) {
        buttons.push(button('illegal', t('ui.claim_illegal', { player: sideName(opp) }),
          () => void post({ type: 'illegal_move', player: opp, called_by: 'opponent' })));
      }
    }
    buttons.push(button('resign', t('ui.resign'), () => resign(me), 'danger'));
  }
  if (g.role === 'arbiter' && !over && !stopped) {
    for (const c of ['white', 'black'] as Color[]) {
      if (clocks.left(c) === 0) {
        buttons.push(button(`flag-${c}`, t('ui.call_flag', { player: sideName(c) }),
          () => void post({ type: 'flag', player: c }), 'primary'));
      }
    }
    if (otb) {
      const p = st.to_move;
      buttons.push(button('illegal', t('ui.call_illegal', { player: sideName(p) }),
        () => void post({ type: 'illegal_move', player: p, called_by: 'arbiter' })));
      buttons.push(button('touch', t('ui.seen_touch', { player: sideName(p) }),
        () => void post({ type: 'touch', player: p })));
      buttons.push(button('illegal-unnoticed', t('ui.illegal_unnoticed'), () => setUnnoticedMode(!unnoticedMode)));
    }
  }
  box.replaceChildren(...buttons);
  box.hidden = buttons.length === 0;
  $('claim-more').hidden = !claims;
  const quickplay = g.config.quickplay_finish === true;
  document.querySelectorAll<HTMLOptionElement>('#claim-kind option[data-needs=quickplay]').forEach((o) => {
    o.hidden = !quickplay;
    o.disabled = !quickplay;
  });
  const kind = $('claim-kind') as HTMLSelectElement;
  if (kind.selectedOptions[0]?.disabled) kind.value = 'threefold_repetition';
}

let resignAsked = 0;

/** Resign, after a second click within a few seconds (a slip of the finger ends no game). */
function resign(me: Color): void {
  const b = document.getElementById('resign');
  if (Date.now() - resignAsked < 4000) {
    resignAsked = 0;
    void post({ type: 'resign', player: me });
    return;
  }
  resignAsked = Date.now();
  if (b) b.textContent = t('ui.resign_confirm');
  window.setTimeout(() => {
    if (Date.now() - resignAsked >= 4000 && b?.isConnected) b.textContent = t('ui.resign');
  }, 4100);
}

function roleText(g: Game): string {
  if (isPlayer(g)) return t('ui.you_are', { player: sideName(g.role) });
  return g.role === 'arbiter' ? t('ui.role_arbiter') : t('ui.role_spectator');
}

function statusText(g: Game): string {
  const st = g.state;
  if (st.over) return '';
  if (st.awaiting_arbiter) return t('ui.clocks_stopped');
  if (isPlayer(g)) return st.to_move === g.role ? t('ui.your_move') : t('ui.to_move', { player: sideName(st.to_move) });
  return t('ui.to_move', { player: sideName(st.to_move) });
}

function renderBanner(g: Game): void {
  const st = g.state;
  const banner = $('banner');
  banner.hidden = !st.over;
  if (!st.over) return banner.replaceChildren();
  const r: Ruling = {
    result: st.result ?? undefined,
    message: st.message ?? undefined,
    params: st.params,
    explanation: st.explanation ?? undefined,
    article: st.article ?? undefined,
  };
  const headline = st.result === '1-0' ? t('ui.white_wins') : st.result === '0-1' ? t('ui.black_wins') : t('ui.draw');
  banner.replaceChildren(
    el('div', { class: 'headline' }, el('span', { class: 'score' }, resultText(st.result ?? '')), ' ', headline),
    el('p', { class: 'explanation', 'data-testid': 'ruling' }, rulingText(r)),
  );
}

function renderMoves(g: Game): void {
  const arbiter = g.role === 'arbiter' && !g.state.over;
  renderList($('moves'), {
    startFen: startFen(g),
    moves: g.moves,
    shown: shown ?? g.moves.length,
    onPick: (ply) => {
      const m = g.moves[ply - 1];
      if (arbiter && m?.standing) {
        selectPly(selectedPly() === ply ? null : ply); // an illegal move to be found later
      }
      showPly(ply);
    },
    decorate: (m) => ({
      cls: m.standing && selectedPly() === m.ply ? 'selected' : undefined,
      title: m.standing ? t('ui.standing_move') : undefined,
    }),
  });
}

function renderShare(g: Game): void {
  const box = $('share');
  const labels: Record<Role, string> = {
    white: 'ui.link_white', black: 'ui.link_black', arbiter: 'ui.link_arbiter', spectator: 'ui.link_spectator',
  };
  const items = ROLES.filter((r) => g.tokens[r]).map((r) => {
    const url = linkFor(g.id, r, g.tokens[r] as string);
    const copy = el('button', { type: 'button', class: 'copy', 'data-role': r }, t('ui.copy'));
    copy.addEventListener('click', () => void copyLink(url, copy));
    return el('li', {}, el('a', { href: url, 'data-role': r }, t(labels[r])), ' ', copy);
  });
  box.hidden = items.length === 0;
  box.replaceChildren(el('h2', {}, t('ui.share')), el('ul', {}, ...items));
}

async function copyLink(url: string, b: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    // no clipboard (an insecure page): select the text for the user to copy
    window.prompt(t('ui.copy'), url);
  }
  b.textContent = t('ui.copied');
  window.setTimeout(() => (b.textContent = t('ui.copy')), 1500);
}

function renderInfo(g: Game): void {
  const modes: Record<string, string> = {
    online: 'ui.mode_online', blitz: 'ui.mode_blitz', rapid: 'ui.mode_rapid', standard: 'ui.mode_standard',
  };
  const tc = g.config.time_control === '-' ? t('ui.no_clock') : describeTimeControl(g.config.time_control ?? '5400+30');
  $('game-info').textContent = `${tc} · ${t(modes[String(g.config.mode ?? 'standard')] ?? 'ui.mode_standard')}`;
}

function renderTitle(g: Game): void {
  const st = g.state;
  let title: string;
  if (st.over) title = `${resultText(st.result ?? '')} · ${t('ui.game_over')}`;
  else if (isPlayer(g) && st.to_move === g.role) title = `● ${t('ui.your_move')}`;
  else title = t('ui.to_move', { player: sideName(st.to_move) });
  document.title = `${title} · remis`;
}

export function render(): void {
  const g = game;
  if (!g) {
    renderMyGames();
    return;
  }
  const st = g.state;
  document.body.dataset.ply = String(st.ply);
  document.body.dataset.over = String(st.over);
  $('role').textContent = roleText(g);
  renderInfo(g);
  renderBoard(g);
  renderPlayers(g);
  renderBanner(g);
  const status = $('status');
  status.textContent = statusText(g);
  const illegal = st.illegal_moves;
  if (illegal && (illegal.white || illegal.black)) {
    status.append(el('div', { class: 'illegal' }, t('ui.illegal_moves', illegal)));
  }
  const offer = $('offer');
  offer.hidden = !st.pending_offer || st.over;
  offer.textContent = st.pending_offer ? t('ui.pending_offer', { player: sideName(st.pending_offer) }) : '';
  renderActions(g);
  $('claimable-box').hidden = st.over;
  $('claimable').replaceChildren(
    ...(st.claimable.length ? st.claimable.map(rulingItem) : [el('li', {}, t('ui.nothing_claimable'))]),
  );
  $('log').replaceChildren(...g.log.map(rulingItem));
  renderMoves(g);
  renderDecisions({ ...st, log: g.log }, g.role === 'arbiter', g.moves, (ply) => moveLabel(startFen(g), ply));
  renderShare(g);
  renderTitle(g);
}

// -- the list of one's games -----------------------------------------------------

function renderMyGames(): void {
  const list = $('my-games');
  const items = savedGames().map((s) => {
    const token = s.tokens[s.role];
    const label = `${new Date(s.created).toLocaleString()} · ${describeTimeControl(s.timeControl)} · ${
      s.role === 'white' || s.role === 'black' ? sideName(s.role) : t(s.role === 'arbiter' ? 'ui.role_arbiter' : 'ui.role_spectator')}${
      s.result ? ` · ${resultText(s.result)}` : ''}`;
    return el('li', {}, token ? el('a', { href: linkFor(s.id, s.role, token) }, label) : label);
  });
  list.replaceChildren(...(items.length ? items : [el('li', { class: 'hint' }, t('ui.no_games'))]));
}

// -- set-up ------------------------------------------------------------------------

function previewTimeControl(): void {
  const input = $('tc') as HTMLInputElement;
  const tc = parseTimeControl(input.value);
  const preview = $('tc-preview');
  if (!tc) preview.textContent = t('ui.err_time_control');
  else if (tc.pgn === '-') preview.textContent = t('ui.no_clock');
  else if (tc.minutes !== undefined) {
    preview.textContent = t('ui.tc_meaning', { minutes: tc.minutes, seconds: tc.increment ?? 0 });
  } else preview.textContent = tc.pgn;
  input.setAttribute('aria-invalid', String(!tc));
  document.querySelectorAll<HTMLButtonElement>('#presets button').forEach((b) =>
    b.classList.toggle('chosen', b.textContent === input.value.trim()));
}

export function setupPlay(): void {
  board = Chessground($('board'), {
    movable: { free: false, showDests: true, events: { after: (o, d) => void onBoardMove(o, d) } },
    draggable: { enabled: true },
    animation: { enabled: true, duration: 150 },
    coordinates: true,
  });
  new ResizeObserver(() => board.redrawAll()).observe($('board'));
  $('newgame').addEventListener('submit', (ev) => void newGame(ev));
  const presets = $('presets');
  for (const p of PRESETS) {
    const b = el('button', { type: 'button' }, p);
    b.addEventListener('click', () => {
      ($('tc') as HTMLInputElement).value = p;
      previewTimeControl();
    });
    presets.append(b);
  }
  $('tc').addEventListener('input', previewTimeControl);
  previewTimeControl();
  $('claim-move').addEventListener('click', () => setClaimMode(!claimMode && !!game));
  $('claim-cancel').addEventListener('click', () => setClaimMode(false));
  $('unnoticed-cancel').addEventListener('click', () => setUnnoticedMode(false));
  $('claim-now').addEventListener('click', () => {
    if (game && isPlayer(game)) void post({ type: 'claim', player: game.role, kind: claimKind(null) });
  });
  $('flip').addEventListener('click', () => {
    flipped = !flipped;
    render();
  });
  const step = (d: number | 'first' | 'last'): void => {
    const g = game;
    if (!g) return;
    const now = shown ?? g.moves.length;
    showPly(d === 'first' ? 0 : d === 'last' ? null : now + d);
  };
  $('nav-first').addEventListener('click', () => step('first'));
  $('nav-prev').addEventListener('click', () => step(-1));
  $('nav-next').addEventListener('click', () => step(1));
  $('nav-last').addEventListener('click', () => step('last'));
  document.addEventListener('keydown', (ev) => {
    if (!game || $('play').hidden || (ev.target as HTMLElement).closest('input, textarea, select')) return;
    const keys: Record<string, number | 'first' | 'last'> = {
      ArrowLeft: -1, ArrowRight: 1, ArrowUp: 'first', Home: 'first', ArrowDown: 'last', End: 'last',
    };
    const d = keys[ev.key];
    if (d === undefined) return;
    ev.preventDefault();
    step(d);
  });
  $('pgn').addEventListener('click', () => void downloadPgn());
  setupDecisions((event) => void post(event), () => game?.moves ?? []);
  window.setInterval(renderClocks, 100);
  window.addEventListener('hashchange', () => void join(location.hash));
  $('home').addEventListener('click', (ev) => {
    ev.preventDefault();
    history.replaceState(null, '', '/');
    showLobby();
  });
  renderMyGames();
}

async function downloadPgn(): Promise<void> {
  const g = game;
  const token = g && g.tokens[g.role];
  if (!g || !token) return;
  try {
    const res = await fetch(`/v1/games/${g.id}/pgn`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new ApiError(res.status, `HTTP ${res.status}`);
    const url = URL.createObjectURL(await res.blob());
    const a = el('a', { href: url, download: `remis-${g.id}.pgn` });
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (e) {
    showError(plainError(e instanceof TypeError ? new ApiError(0, e.message) : e));
  }
}

/** Open the game of the page's link, if it names one (once the page's words are loaded). */
export async function joinFromLink(): Promise<void> {
  if (location.hash.includes('game=')) await join(location.hash);
  else showLobby();
}
