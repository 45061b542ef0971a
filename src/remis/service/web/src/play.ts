// The "Play" panel: a new-game form and the list of one's games, or a live
// game seen as one role (White, Black, the arbiter, a spectator). A page acts
// only as its role and shows only what that role may do now; every action is
// an event posted to the arbiter through the HTTP API, and the arbiter's
// state is drawn back (from the answer and from the game's event stream).

import { Chess, type Square } from 'chess.js';
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Dests, Key, MoveMetadata } from 'chessground/types';

import { announce } from './announce';
import {
  ApiError,
  call,
  newId,
  type Color,
  type GameState,
  type GameView,
  type PlayedMove,
  type Ruling,
} from './api';
import { renderArbiterTools, setupArbiterTools } from './arbitertools';
import { Clocks, clockText } from './clock';
import { renderDecisions, selectedPly, selectPly, setupDecisions } from './decisions';
import { $, el } from './dom';
import { plainError } from './errors';
import { sideName, t } from './i18n';
import { typedMove } from './moveinput';
import { linkFor, remember, savedGames, type Role } from './mygames';
import { moveLabel, positions, renderList, START_FEN, type Position } from './movelist';
import { prefill, setupNewGame, type NewGame } from './newgame';
import { pickPromotion } from './promotion';
import { follow as followStream } from './stream';
import { describeConfig } from './timecontrol';
import { resultText, rulingItem, rulingText } from './views';

export { plainError } from './errors';

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
  /** the flag (or lapsed first move) this page has already reported */
  flagSent: string | null;
  /** the time control as players write it, from the server */
  tcText: string;
  /** the rematch of this game, once someone started it */
  rematch: { id: string; role: Role } | null;
  /** whether the move list was read once (later moves are announced) */
  movesRead: boolean;
}

const ROLES: Role[] = ['white', 'black', 'arbiter', 'spectator'];
const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');
const LOW_TIME = 20;
/** seconds between two looks for a rematch someone else started */
const REMATCH_POLL = 3000;

let game: Game | null = null;
let board: Api;
const clocks = new Clocks();
/** the ply shown on the board while stepping through the moves; null: the live position */
let shown: number | null = null;
let flipped = false;
let claimMode = false;
let unnoticedMode = false;
/** the side whose touched piece the next click on the board names (4.3), if any */
let touchFor: Color | null = null;
let busy = false;
/** clocks seen at zero, so that the page redraws once when a flag falls */
let zeroSeen = '';
/** the first-move rule's deadline, in performance.now() time, and its player */
let due: { player: Color; until: number } | null = null;
/** the low-time warning said this turn, so that it is said once */
let lowSaid = '';

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

/** A page-made game: a flag falls by itself, and the page reports it at once. */
function physicalFlags(g: Game): boolean {
  return online(g) || g.config.flag_time === 'physical';
}

/** 5.2.3: both players have made a move (a draw can be offered and agreed from then on). */
function bothMoved(g: Game): boolean {
  if (g.state.ply >= 2) return true;
  const players = new Set(g.moves.map((m) => m.player));
  return players.has('white') && players.has('black');
}

/** A player's name as the game has it, else the side. */
function playerName(g: Game, color: Color): string {
  const names = (g.config.players ?? {}) as Record<string, string>;
  return names[color] ?? sideName(color);
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

/**
 * Post an event with this page's own token; true when the arbiter accepted it.
 * A ``quiet`` post (the page's own report of a fallen flag) shows no refusal:
 * the server's clock may be a hair behind, and the page tries again.
 */
async function post(event: Record<string, unknown>, quiet = false): Promise<boolean> {
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
    if (!quiet) showError(plainError(e));
    if (e instanceof ApiError && e.status === 409) void catchUp(g);
    render(); // a refused move goes back, with its highlight
    return false;
  } finally {
    busy = false;
  }
}

/** After a refusal the page may be behind (a missed event): read the game again. */
async function catchUp(g: Game): Promise<void> {
  try {
    const view = await call<GameView & { event?: number }>('GET', `/v1/games/${g.id}`, undefined, g.tokens[g.role]);
    if (game !== g) return;
    g.state = view.state;
    clocks.set(view.state.clocks, view.state.clock?.running ?? null, ranSince(view));
    render();
    void refreshMoves();
    void refreshLog();
  } catch {
    /* the stream catches up by itself */
  }
}

/** Draw a new state (our own answer, or one from the stream) unless the page has it already. */
function setState(state: GameState, event: number, ranAlready = 0): void {
  const g = game;
  // the stream repeats the answer to our own event: its clocks would step back by the delay
  if (!g || event <= g.event) return;
  const wasMyTurn = myTurn(g);
  const wasOver = g.state.over;
  g.event = event;
  g.state = state;
  if (event === g.logAt + 1) {
    g.log.push(...(state.rulings ?? []));
    g.logAt = event;
  } else if (event > g.logAt) void refreshLog();
  clocks.set(state.clocks, state.clock?.running ?? null, ranAlready);
  setDue(state, ranAlready);
  if (state.over) {
    remember({ id: g.id, role: g.role, tokens: g.tokens, created: Date.now(),
      timeControl: g.tcText, result: state.result });
  }
  render();
  if (!wasMyTurn && myTurn(g)) board.playPremove();
  if (state.over && !wasOver) {
    announce(`${headline(state.result)} ${rulingText(endRuling(state))}`);
    pollRematch(g);
  }
  void refreshMoves();
}

function myTurn(g: Game): boolean {
  const st = g.state;
  return isPlayer(g) && st.to_move === g.role && !st.over && !st.awaiting_arbiter;
}

/** The first-move rule's deadline from a state, counted on from now. */
function setDue(state: GameState, ranAlready: number): void {
  const d = state.first_move_due;
  const at = state.clock?.at;
  due = d && typeof at === 'number'
    ? { player: d.player, until: performance.now() + (d.at - at - Math.max(0, ranAlready)) * 1000 }
    : null;
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
    const before = g.moves.length;
    const read = g.movesRead;
    g.moves = res.moves;
    g.movesAt = res.event;
    g.movesRead = true;
    g.positions = positions(startFen(g), g.moves);
    if (live) shown = null;
    if (game === g) {
      render();
      if (read && g.moves.length === before + 1) announceMove(g, g.moves[g.moves.length - 1]);
    }
  } catch {
    /* the list is a convenience; the state is what counts */
  }
}

/** "Black played e5. Your move." for a screen reader (one's own move is not repeated). */
function announceMove(g: Game, m: PlayedMove): void {
  if (isPlayer(g) && m.player === g.role) return;
  const said = t('ui.announce_move', { player: playerName(g, m.player), move: m.move });
  announce(myTurn(g) ? `${said} ${t('ui.your_move')}.` : said);
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
      setDue(g.state, ranSince(view));
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
  lowSaid = '';
  selectPly(null);
  setClaimMode(false);
  setUnnoticedMode(false);
  setTouchFor(null);
  clocks.set(g.state.clocks, g.state.clock?.running ?? null, ranAlready);
  setDue(g.state, ranAlready);
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
  if (!g.tcText) void loadControlText(g);
  if (g.state.over) pollRematch(g);
}

/** The game's time control as players write it (the server reads the config's). */
async function loadControlText(g: Game): Promise<void> {
  const tc = g.config.time_control;
  if (typeof tc !== 'string') return;
  try {
    g.tcText = (await describeConfig(tc)).text;
    if (game === g) render();
  } catch {
    g.tcText = tc;
  }
}

function newGame(id: string, role: Role, tokens: Partial<Record<Role, string>>, view: GameView,
  tcText: string): Game {
  return {
    id, role, tokens, config: view.config, state: view.state, moves: [],
    positions: positions(typeof view.config.start_fen === 'string' ? view.config.start_fen : START_FEN, []),
    movesAt: 0, event: 0, log: [], logAt: 0, stream: null, flagSent: null, tcText, rematch: null,
    movesRead: false,
  };
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
      timeControl: saved?.timeControl ?? String(view.config.time_control ?? ''),
      result: view.state.over ? view.state.result : null });
    openGame(newGame(id, role, tokens, view, saved?.timeControl ?? ''), ranSince(view));
  } catch (e) {
    pageError(plainError(e));
    showLobby();
  }
}

function showLobby(): void {
  game?.stream?.();
  game = null;
  due = null;
  delete document.body.dataset.game;
  $('lobby').hidden = false;
  $('game').hidden = true;
  document.title = 'remis';
  render();
}

function created(n: NewGame): void {
  const { created: c, role, config, tcText } = n;
  remember({ id: c.id, role, tokens: c.tokens, created: Date.now(), timeControl: tcText });
  const token = c.tokens[role as keyof typeof c.tokens];
  history.replaceState(null, '', `/#game=${c.id}&as=${role}&token=${token}`);
  pageError('');
  openGame(newGame(c.id, role, c.tokens, { id: c.id, config, state: c.state }, tcText), 0);
}

// -- after the end: a rematch, a new game --------------------------------------------

/** The tokens of the rematch: the same secrets, White's now Black's and Black's now White's. */
function swappedTokens(tokens: Partial<Record<Role, string>>): Partial<Record<Role, string>> {
  const out: Partial<Record<Role, string>> = {};
  for (const [role, token] of Object.entries(tokens) as [Role, string][]) {
    out[role === 'white' ? 'black' : role === 'black' ? 'white' : role] = token;
  }
  return out;
}

async function openRematch(g: Game, r: { id: string; role: Role }): Promise<void> {
  const token = g.tokens[g.role];
  if (!token) return;
  const tokens = swappedTokens(g.tokens);
  history.replaceState(null, '', `/#game=${r.id}&as=${r.role}&token=${token}`);
  try {
    const view = await call<GameView>('GET', `/v1/games/${r.id}`, undefined, token);
    remember({ id: r.id, role: r.role, tokens, created: Date.now(), timeControl: g.tcText });
    openGame(newGame(r.id, r.role, tokens, view, g.tcText), ranSince(view));
  } catch (e) {
    showError(plainError(e));
  }
}

async function startRematch(g: Game): Promise<void> {
  try {
    const r = await call<{ id: string; role: Role }>('POST', `/v1/games/${g.id}/rematch`, undefined, g.tokens[g.role]);
    await openRematch(g, r);
  } catch (e) {
    showError(plainError(e));
  }
}

/** Look now and then whether someone started this game's rematch; offer to join it. */
function pollRematch(g: Game): void {
  const look = async (): Promise<void> => {
    if (game !== g || g.rematch) return;
    try {
      g.rematch = await call<{ id: string; role: Role }>('GET', `/v1/games/${g.id}/rematch`, undefined, g.tokens[g.role]);
      if (game === g) {
        renderBanner(g);
        announce(t('ui.rematch_started'));
      }
    } catch {
      window.setTimeout(() => void look(), REMATCH_POLL);
    }
  };
  void look();
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

/** 4.3: with a touched piece recorded, only its moves (or its captures) while there are any. */
function bound(all: Dests, st: GameState): Dests {
  const touched = st.touched;
  const sq = touched?.square as Key | null | undefined;
  if (!touched || !sq || touched.player !== st.to_move) return all;
  const own = all.get(sq);
  if (own && own.length) return new Map([[sq, own]]);
  const captures: Dests = new Map();
  for (const [from, tos] of all) if (tos.includes(sq)) captures.set(from, [sq]);
  return captures.size ? captures : all;
}

function orientation(g: Game): Color {
  const own: Color = g.role === 'black' ? 'black' : 'white';
  return flipped ? other(own) : own;
}

async function onBoardMove(orig: Key, dest: Key, meta?: MoveMetadata): Promise<void> {
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
    if (meta?.premove) promotion = 'q'; // a premove promotes to a queen, as on lichess
    else {
      const view = orientation(g);
      const file = dest.charCodeAt(0) - 97;
      const picked = await pickPromotion($('promotion'), st.to_move, view === 'white' ? file : 7 - file,
        (dest[1] === '8') === (view === 'white'));
      if (!picked) return render();
      promotion = picked;
    }
  }
  let san: string;
  try {
    san = chess.move({ from: orig, to: dest, promotion }).san;
  } catch {
    return render();
  }
  playSan(g, san);
}

/** Play (or, in claim mode, write) a legal move of the side to move. */
function playSan(g: Game, san: string): void {
  const player = g.state.to_move;
  if (claimMode) {
    setClaimMode(false);
    void post({ type: 'claim', player, kind: claimKind(san), move: san });
    render(); // the intended move is written, not played
    return;
  }
  void post({ type: 'move', player, move: san, expected_ply: g.state.ply });
}

/** A move typed on the keyboard (SAN or UCI) and Enter. */
function onTypedMove(ev: Event): void {
  ev.preventDefault();
  const g = game;
  const input = $('move-input') as HTMLInputElement;
  const text = input.value;
  if (!g || !text.trim()) return;
  if (!myTurn(g)) {
    showError(t('ui.not_your_move'));
    return;
  }
  const m = typedMove(g.state.fen, text);
  const allowed = bound(dests(g.state.fen), g.state).get(m?.from as Key);
  if (!m || !allowed?.includes(m.to as Key)) {
    showError(m ? t('ui.touched_binds', { square: g.state.touched?.square ?? '' }) : t('ui.typed_unknown', { text: text.trim() }));
    return;
  }
  input.value = '';
  playSan(g, m.san);
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
  if (on) {
    setClaimMode(false);
    setTouchFor(null);
  }
  if (game) render();
}

/** The next click on the board names the piece ``color`` touched (4.3); null ends that. */
function setTouchFor(color: Color | null): void {
  touchFor = color;
  $('touch-banner').hidden = color === null;
  if (game) render();
}

/** A square clicked: in touch mode, the touched piece is recorded with its square. */
function onSelect(key: Key): void {
  const g = game;
  if (!g || touchFor === null) return;
  const piece = new Chess(g.state.fen).get(key as Square);
  if (!piece) return;
  const player = touchFor;
  setTouchFor(null);
  void post({ type: 'touch', player, square: key });
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
  const mine = myTurn(g);
  const chess = new Chess(fen, { skipValidation: true });
  const lastMove = live ? g.positions[g.moves.length]?.last : pos?.last;
  // a player's own pieces are movable on their turn, and premovable on the opponent's
  const player = isPlayer(g) && !st.over && live && touchFor === null;
  board.set({
    fen,
    orientation: orientation(g),
    turnColor: live ? st.to_move : pos.turn,
    lastMove,
    check: chess.inCheck() ? (live ? st.to_move : pos.turn) : false,
    movable: unnoticedMode && live
      ? { free: true, color: st.to_move }
      : {
        free: false,
        color: player ? (g.role as Color) : undefined,
        dests: mine && live && touchFor === null ? bound(dests(fen), st) : new Map(),
      },
    premovable: { enabled: player && !st.awaiting_arbiter },
  });
  if (!player) board.cancelPremove();
  $('board').dataset.fen = fen;
  document.body.dataset.shown = String(live ? st.ply : shown);
  $('board-position').textContent = t('ui.board_position', {
    player: sideName(live ? st.to_move : pos.turn),
    move: lastMove && (live ? g.moves.length : shown) ? g.moves[(live ? g.moves.length : (shown as number)) - 1]?.move ?? '' : '–',
  });
  $('move-form').hidden = !isPlayer(g) || st.over;
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
    face.setAttribute('aria-label', t('ui.clock_of', { player: playerName(g, color), time: clockText(left) }));
    bar.classList.toggle('running', clocks.runs(color));
    bar.classList.toggle('low', left !== null && left < LOW_TIME && left > 0);
    bar.classList.toggle('flagged', left === 0);
    if (left === 0) zero.push(color);
    if (isPlayer(g) && color === g.role && clocks.runs(color) && left !== null && left < LOW_TIME && left > 0) {
      const key = `${g.event}:${color}`;
      if (lowSaid !== key) {
        lowSaid = key;
        announce(t('ui.announce_low_time', { seconds: Math.ceil(left) }));
      }
    }
  }
  renderFirstMove(g);
  const seen = `${g.event}:${zero.join(',')}`;
  if (zero.length && seen !== zeroSeen) {
    zeroSeen = seen;
    renderActions(g); // a flag fell: its claim is offered at once
    autoFlag(g, zero);
  }
}

/** The first-move rule, said while it applies; a lapsed first move is reported at once. */
function renderFirstMove(g: Game): void {
  const box = $('first-move');
  const seconds = g.config.first_move_seconds;
  const applies = typeof seconds === 'number' && !g.state.over && !bothMoved(g);
  box.hidden = !applies;
  if (!applies) return;
  if (!due) {
    box.textContent = t('ui.first_move_rule', { seconds });
    return;
  }
  const left = Math.max(0, (due.until - performance.now()) / 1000);
  box.textContent = t('ui.first_move_due', { player: playerName(g, due.player), time: clockText(left) });
  const reports = g.role === 'arbiter' || g.role === other(due.player);
  const key = `due:${g.event}`;
  if (left === 0 && reports && g.flagSent !== key && performance.now() > due.until + 300) {
    // the arbiter cancels the game at the next event: the flag report is that event
    g.flagSent = key;
    const player = due.player;
    void post({ type: 'flag', player }, true).then((ok) => {
      if (!ok) window.setTimeout(() => { if (g.flagSent === key) g.flagSent = null; }, 1000);
    });
  }
}

/** A flag that falls by itself (online, and in page-made games): the opponent's or the arbiter's page reports it at once (6.9). */
function autoFlag(g: Game, zero: string[]): void {
  if (!physicalFlags(g) || g.state.over) return;
  for (const color of zero as Color[]) {
    const mayReport = g.role === 'arbiter' || g.role === other(color);
    const key = `${g.event}:${color}`;
    if (mayReport && g.flagSent !== key && clocks.runs(color)) {
      g.flagSent = key;
      void post({ type: 'flag', player: color }, true).then((ok) => {
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
    const name = bar.querySelector('.name') as HTMLElement;
    name.textContent = playerName(g, color);
    name.title = sideName(color);
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
  const started = bothMoved(g);
  let claims = false;
  if (isPlayer(g) && !over) {
    const me = g.role;
    const opp = other(me);
    const onMove = st.to_move === me;
    if (st.pending_offer === opp) {
      // 5.2.3: an offer is agreed only once both players have moved
      if (started) buttons.push(button('accept-draw', t('ui.accept_draw'), () => void post({ type: 'accept_draw', player: me }), 'primary'));
      buttons.push(button('decline-draw', t('ui.decline_draw'), () => void post({ type: 'decline_draw', player: me })));
    } else if (st.pending_offer !== me && !stopped && started) {
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
      if (onMove) buttons.push(button('touch', t('ui.touch'), () => setTouchFor(touchFor ? null : me)));
      else if (g.moves.length) {
        buttons.push(button('illegal', t('ui.claim_illegal', { player: sideName(opp) }),
          () => void post({ type: 'illegal_move', player: opp, called_by: 'opponent' })));
      }
    }
    if (typeof g.config.first_move_seconds === 'number' && !started) {
      buttons.push(button('abort', t('ui.abort'), () => void post({ type: 'abort', player: me })));
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
      buttons.push(button('touch', t('ui.seen_touch', { player: sideName(p) }), () => setTouchFor(touchFor ? null : p)));
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
  const mine = isPlayer(g) ? (st.requests ?? []).find((r) => r.player === g.role) : undefined;
  $('call-arbiter').hidden = !isPlayer(g) || over || !!mine;
  $('request-open').hidden = !mine || over;
  $('request-open').textContent = mine ? t('ui.request_waiting') : '';
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
  if (touchFor) return t('ui.touch_mode_on');
  if (isPlayer(g)) return st.to_move === g.role ? t('ui.your_move') : t('ui.to_move', { player: sideName(st.to_move) });
  return t('ui.to_move', { player: sideName(st.to_move) });
}

function headline(result: string | null | undefined): string {
  if (result === '1-0') return t('ui.white_wins');
  if (result === '0-1') return t('ui.black_wins');
  if (result === '*') return t('ui.cancelled');
  return t('ui.draw');
}

function endRuling(st: GameState): Ruling {
  return {
    result: st.result ?? undefined,
    message: st.message ?? undefined,
    params: st.params,
    explanation: st.explanation ?? undefined,
    article: st.article ?? undefined,
  };
}

function renderBanner(g: Game): void {
  const st = g.state;
  const banner = $('banner');
  banner.hidden = !st.over;
  if (!st.over) return banner.replaceChildren();
  const after: HTMLElement[] = [];
  if (g.rematch) {
    const r = g.rematch;
    after.push(el('p', { class: 'rematch-note', 'data-testid': 'rematch-note' }, t('ui.rematch_started')),
      button('rematch-join', t('ui.rematch_join'), () => void openRematch(g, r), 'primary'));
  } else if (g.role !== 'spectator') {
    after.push(button('rematch', t('ui.rematch'), () => void startRematch(g), 'primary'));
  }
  after.push(button('new-game-again', t('ui.new_game'), () => {
    history.replaceState(null, '', '/');
    const config = g.config;
    showLobby();
    void prefill(config);
  }));
  banner.replaceChildren(
    el('div', { class: 'headline' }, el('span', { class: 'score' }, resultText(st.result ?? '')), ' ', headline(st.result)),
    el('p', { class: 'explanation', 'data-testid': 'ruling' }, rulingText(endRuling(st))),
    el('div', { class: 'controls' }, ...after),
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
    const copy = el('button', { type: 'button', class: 'copy', 'data-role': r, 'aria-label': `${t('ui.copy')}: ${t(labels[r])}` }, t('ui.copy'));
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
  const tc = g.config.time_control === '-' ? t('ui.no_clock') : g.tcText || String(g.config.time_control ?? '');
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
  const isArbiter = g.role === 'arbiter';
  const { decide, findLater } = renderDecisions({ ...st, log: g.log }, isArbiter, g.moves,
    (ply) => moveLabel(startFen(g), ply));
  const tools = renderArbiterTools(st, isArbiter, decide, post);
  $('arbiter-panel').hidden = !decide && !findLater && !tools;
  renderShare(g);
  renderTitle(g);
}

// -- the list of one's games -----------------------------------------------------

function renderMyGames(): void {
  const list = $('my-games');
  const items = savedGames().map((s) => {
    const token = s.tokens[s.role];
    const label = `${new Date(s.created).toLocaleString()} · ${s.timeControl} · ${
      s.role === 'white' || s.role === 'black' ? sideName(s.role) : t(s.role === 'arbiter' ? 'ui.role_arbiter' : 'ui.role_spectator')}${
      s.result ? ` · ${resultText(s.result)}` : ''}`;
    return el('li', {}, token ? el('a', { href: linkFor(s.id, s.role, token) }, label) : label);
  });
  list.replaceChildren(...(items.length ? items : [el('li', { class: 'hint' }, t('ui.no_games'))]));
}

// -- set-up ------------------------------------------------------------------------

export function setupPlay(): void {
  board = Chessground($('board'), {
    movable: { free: false, showDests: true, events: { after: (o, d, meta) => void onBoardMove(o, d, meta) } },
    premovable: { enabled: true, showDests: true },
    draggable: { enabled: true },
    animation: { enabled: true, duration: 150 },
    coordinates: true,
    events: { select: onSelect },
  });
  new ResizeObserver(() => board.redrawAll()).observe($('board'));
  // chessground keeps the board's place on screen until a scroll or a resize: a
  // notice that appears above the board (a lost connection) moves it without either
  new ResizeObserver(() => board.state.dom.bounds.clear()).observe(document.body);
  setupNewGame(created);
  $('move-form').addEventListener('submit', onTypedMove);
  $('claim-move').addEventListener('click', () => setClaimMode(!claimMode && !!game));
  $('claim-cancel').addEventListener('click', () => setClaimMode(false));
  $('unnoticed-cancel').addEventListener('click', () => setUnnoticedMode(false));
  $('touch-cancel').addEventListener('click', () => setTouchFor(null));
  $('claim-now').addEventListener('click', () => {
    if (game && isPlayer(game)) void post({ type: 'claim', player: game.role, kind: claimKind(null) });
  });
  $('request-send').addEventListener('click', () => {
    const g = game;
    if (!g || !isPlayer(g)) return;
    const comment = ($('request-comment') as HTMLTextAreaElement).value.trim();
    void post({ type: 'request', player: g.role, kind: ($('request-kind') as HTMLSelectElement).value,
      ...(comment ? { comment } : {}) }).then((ok) => {
      if (ok) ($('request-comment') as HTMLTextAreaElement).value = '';
    });
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
  setupArbiterTools(post);
  window.setInterval(renderClocks, 100);
  window.addEventListener('hashchange', () => void join(location.hash));
  $('home').addEventListener('click', (ev) => {
    ev.preventDefault();
    history.replaceState(null, '', '/');
    showLobby();
  });
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
