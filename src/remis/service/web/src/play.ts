// The "Play" panel: a live game on the board, every action sent to the
// arbiter as an event through the HTTP API; the arbiter's state drawn back.

import { Chess, type Square } from 'chess.js';
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Dests, Key } from 'chessground/types';

import {
  ApiError,
  call,
  type Color,
  type Created,
  type GameState,
  type PlayedMove,
  type Ruling,
} from './api';
import { renderDecisions, selectedPly, selectPly, setupDecisions } from './decisions';
import { $, el } from './dom';
import { sideName, t } from './i18n';
import { follow as followStream } from './stream';
import { clockText, rulingBox, rulingItem } from './views';

type Who = Color | 'arbiter' | 'spectator';

interface Game {
  id: string;
  tokens: Partial<Record<Who, string>>;
  /** the arbiter config the game was created with */
  config: Record<string, unknown>;
  state: GameState;
  /** the moves on the arbiter's board, from GET /v1/games/{id}/moves */
  moves: PlayedMove[];
  /** number of events the move list was read after */
  movesAt: number;
  receivedAt: number;
  /** number of the last accepted event we have drawn */
  event: number;
  /** the ruling log (GET /v1/games/{id}/events, then each state's ``rulings``) */
  log: Ruling[];
  /** number of events the log covers */
  logAt: number;
  /** stops following the game's event stream */
  stream: (() => void) | null;
}

let game: Game | null = null;
let board: Api;
let claimMode = false;
/** the next move on the board is an illegal move nobody calls (the arbiter's page) */
let unnoticedMode = false;
let busy = false;

const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

/** A token to read the game with: any of the game's tokens will do. */
function readToken(g: Game): string | undefined {
  const order: Who[] = ['spectator', 'white', 'black', 'arbiter'];
  return order.map((w) => g.tokens[w]).find((tk) => tk);
}

function dests(fen: string): Dests {
  const out: Dests = new Map();
  const chess = new Chess(fen);
  for (const m of chess.moves({ verbose: true })) {
    const list = out.get(m.from as Key) ?? [];
    list.push(m.to as Key);
    out.set(m.from as Key, list);
  }
  return out;
}

function acting(fallback: Color): Color {
  const v = ($('acting') as HTMLSelectElement).value;
  return v === 'white' || v === 'black' ? v : fallback;
}

function showError(text: string): void {
  $('error').textContent = text ? t('ui.refused', { detail: text }) : '';
}

/** A fresh event id: the server answers a retry with the same id as it did the first time. */
function eventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Post an event, trying the tokens in order (the next one on 403). */
async function post(event: Record<string, unknown>, order: Who[]): Promise<boolean> {
  if (!game || busy) return false;
  busy = true;
  showError('');
  event = { ...event, id: eventId() };
  try {
    let last: unknown = null;
    for (const who of order.filter((w) => game?.tokens[w])) {
      try {
        const res = await call<{ state: GameState; event: number }>(
          'POST',
          `/v1/games/${game.id}/events`,
          event,
          game.tokens[who],
        );
        setState(res.state, res.event);
        return true;
      } catch (e) {
        last = e;
        if (e instanceof ApiError && e.status === 403) continue;
        break;
      }
    }
    showError(last === null ? t('ui.no_token') : last instanceof Error ? last.message : String(last));
    render();
    return false;
  } finally {
    busy = false;
  }
}

/** Draw a new state (from our own event or from the stream) unless it is older than ours. */
function setState(state: GameState, event: number): void {
  if (!game || event < game.event) return;
  const changed = event !== game.event;
  game.event = event;
  game.state = state;
  game.receivedAt = performance.now();
  if (event === game.logAt + 1) {
    game.log.push(...(state.rulings ?? []));
    game.logAt = event;
  } else if (event > game.logAt) void refreshLog();
  render();
  if (changed) void refreshMoves();
}

/** The ruling log, read page by page from where the page's copy ends. */
async function refreshLog(): Promise<void> {
  if (!game) return;
  const g = game;
  try {
    for (;;) {
      const page = await call<{ log: Ruling[]; after: number; last: number; total: number }>(
        'GET',
        `/v1/games/${g.id}/events?after=${g.logAt}`,
        undefined,
        readToken(g),
      );
      if (page.after !== g.logAt) return; // overtaken by a newer answer
      g.log.push(...page.log);
      g.logAt = page.last;
      if (page.last >= page.total) break;
    }
    if (game === g) render();
  } catch {
    /* shown again with the next event */
  }
}

/**
 * The move list as the arbiter's board holds it: illegal moves that stand are
 * in it (marked), moves cancelled when one was found later are not.
 */
async function refreshMoves(): Promise<void> {
  if (!game) return;
  const g = game;
  try {
    const res = await call<{ moves: PlayedMove[]; event: number }>(
      'GET',
      `/v1/games/${g.id}/moves`,
      undefined,
      readToken(g),
    );
    if (res.event < g.movesAt) return; // an older answer overtaken by a newer one
    g.moves = res.moves;
    g.movesAt = res.event;
    if (game === g) render();
  } catch {
    /* the list is a convenience; the state is what counts */
  }
}

/** Follow the game's Server-Sent Events, so that every open page shows every event. */
function follow(g: Game): void {
  g.stream?.();
  const token = readToken(g);
  if (!token) return;
  g.stream = followStream(`/v1/games/${g.id}/stream`, token, (id, data) => {
    if (game !== g) return g.stream?.();
    setState(JSON.parse(data) as GameState, id);
  });
}

function shareLinks(g: Game): void {
  const box = $('share');
  box.replaceChildren();
  const roles: [Who, string][] = [
    ['white', 'ui.link_white'],
    ['black', 'ui.link_black'],
    ['arbiter', 'ui.link_arbiter'],
    ['spectator', 'ui.link_spectator'],
  ];
  const links = roles
    .filter(([who]) => g.tokens[who])
    .map(([who, key]) => {
      const url = `${location.origin}/#game=${g.id}&as=${who}&token=${g.tokens[who]}`;
      return el('li', {}, el('a', { href: url, target: '_blank', 'data-role': who }, t(key)));
    });
  box.hidden = links.length === 0;
  if (links.length) box.append(el('span', {}, t('ui.share')), el('ul', {}, ...links));
}

function start(g: Game): void {
  game?.stream?.();
  game = g;
  selectPly(null);
  unnoticedMode = false;
  $('unnoticed-banner').hidden = true;
  document.body.dataset.game = g.id;
  setClaimMode(false);
  render();
  follow(g);
  void refreshMoves();
  void refreshLog();
}

/**
 * Open a game from a link ``#game=ID&as=white&token=...`` (a player's, the
 * arbiter's or a spectator's view); reading the game needs the token.
 */
async function join(hash: string): Promise<void> {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const id = q.get('game');
  const who = q.get('as') as Who | null;
  const token = q.get('token') ?? undefined;
  if (!id) return;
  try {
    const view = await call<{ id: string; config: Record<string, unknown>; state: GameState }>('GET', `/v1/games/${id}`, undefined, token);
    const tokens: Partial<Record<Who, string>> = {};
    if (who && token && ['white', 'black', 'arbiter', 'spectator'].includes(who)) tokens[who] = token;
    start({
      id,
      tokens,
      config: view.config,
      state: view.state,
      moves: [],
      movesAt: 0,
      receivedAt: performance.now(),
      event: 0,
      log: [],
      logAt: 0,
      stream: null,
    });
    if (who === 'black') board.set({ orientation: 'black' });
  } catch (e) {
    showError(e instanceof Error ? e.message : String(e));
  }
}

function onBoardMove(orig: Key, dest: Key): void {
  if (!game) return;
  const st = game.state;
  if (unnoticedMode) {
    // any move of the side to move, in UCI; the arbiter refuses one that is legal
    setUnnoticedMode(false);
    const p = st.to_move;
    void post({ type: 'illegal_move', player: p, move: `${orig}${dest}`, called_by: 'nobody' }, [
      'arbiter',
      other(p),
    ]);
    render();
    return;
  }
  const chess = new Chess(st.fen);
  const piece = chess.get(orig as Square);
  const promotion =
    piece?.type === 'p' && (dest[1] === '8' || dest[1] === '1') ? 'q' : undefined;
  let san: string;
  try {
    san = chess.move({ from: orig, to: dest, promotion }).san;
  } catch {
    render();
    return;
  }
  const player = st.to_move;
  if (claimMode) {
    setClaimMode(false);
    void post({ type: 'claim', player, kind: claimKind(san), move: san }, [player]);
    render(); // the intended move is written, not played
    return;
  }
  void post({ type: 'move', player, move: san }, [player]);
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
  render();
}

export function render(): void {
  if (!game) return;
  const st = game.state;
  document.body.dataset.ply = String(st.ply);
  document.body.dataset.over = String(st.over);
  const chess = new Chess(st.fen);
  board.set({
    fen: st.fen,
    turnColor: st.to_move,
    check: chess.inCheck() ? st.to_move : false,
    movable: unnoticedMode
      ? { free: true, color: st.to_move }
      : {
          free: false,
          color: st.over || !game.tokens[st.to_move] ? undefined : st.to_move,
          dests: st.over ? new Map() : dests(st.fen),
        },
  });
  // an illegal move that stands: reported by the arbiter (or an electronic board with the
  // arbiter's token); never online, where the server rejects illegal moves
  $('illegal-unnoticed').hidden = !game.tokens.arbiter || st.over || game.config.mode === 'online';
  $('status').textContent = st.over ? '' : t('ui.to_move', { player: sideName(st.to_move) });
  const offer = $('offer');
  offer.hidden = !st.pending_offer;
  offer.textContent = st.pending_offer ? t('ui.pending_offer', { player: sideName(st.pending_offer) }) : '';
  const result = $('result');
  result.replaceChildren();
  if (st.over) {
    result.append(
      rulingBox(
        {
          result: st.result ?? undefined,
          message: st.message ?? undefined,
          params: st.params,
          explanation: st.explanation ?? undefined,
          article: st.article ?? undefined,
        },
        'over',
      ),
    );
  } else {
    result.append(el('div', { class: 'ruling' }, t('ui.game_goes_on')));
  }
  const claimable = $('claimable');
  claimable.replaceChildren(
    ...(st.claimable.length
      ? st.claimable.map(rulingItem)
      : [el('li', {}, t('ui.nothing_claimable'))]),
  );
  $('log').replaceChildren(...game.log.map(rulingItem));
  const illegal = st.illegal_moves;
  if (illegal && (illegal.white || illegal.black)) {
    $('status').append(el('div', { class: 'illegal' }, t('ui.illegal_moves', illegal)));
  }
  const quickplay = game.config.quickplay_finish === true;
  document.querySelectorAll<HTMLOptionElement>('#claim-kind option[data-needs=quickplay]').forEach((o) => {
    o.hidden = !quickplay;
    o.disabled = !quickplay;
  });
  const kind = $('claim-kind') as HTMLSelectElement;
  if (kind.selectedOptions[0]?.disabled) kind.value = 'threefold_repetition';
  renderClocks();
  renderMoves();
  renderDecisions({ ...st, log: game.log }, !!game.tokens.arbiter, game.moves);
  shareLinks(game);
}

/** One move of the list; on the arbiter's page an illegal move standing on the board can be
 * chosen (for "illegal move found later"). */
function moveItem(m: PlayedMove, arbiter: boolean): HTMLElement {
  const attrs: Record<string, string> = { class: 'move', 'data-ply': String(m.ply) };
  if (m.standing) {
    attrs.class += ' standing';
    attrs.title = t('ui.standing_move');
  }
  if (!(m.standing && arbiter)) return el('span', attrs, m.move);
  if (selectedPly() === m.ply) attrs.class += ' selected';
  const button = el('button', { ...attrs, type: 'button' }, m.move);
  button.addEventListener('click', () => {
    selectPly(selectedPly() === m.ply ? null : m.ply);
    render();
  });
  return button;
}

function renderMoves(): void {
  if (!game) return;
  const arbiter = !!game.tokens.arbiter && !game.state.over;
  const moves: (PlayedMove | null)[] = [...game.moves];
  if (moves.length && moves[0]?.player === 'black') moves.unshift(null); // Black moved first
  const items: HTMLElement[] = [];
  for (let i = 0; i < moves.length; i += 2) {
    const pair = [moves[i], moves[i + 1]].filter((m, j) => j === 0 || m !== undefined);
    const parts: (Node | string)[] = [];
    pair.forEach((m, j) => {
      if (j) parts.push(' ');
      parts.push(m ? moveItem(m, arbiter) : '…');
    });
    items.push(el('li', {}, ...parts));
  }
  $('moves').replaceChildren(...items);
}

function renderClocks(): void {
  if (!game) return;
  const st = game.state;
  const elapsed = (performance.now() - game.receivedAt) / 1000;
  for (const c of ['white', 'black'] as Color[]) {
    const base = st.clocks?.[c];
    const running = !st.over && st.to_move === c && typeof base === 'number';
    const shown = running ? (base as number) - elapsed : base;
    const node = $(`clock-${c}`);
    node.textContent = clockText(shown);
    node.classList.toggle('running', running);
  }
}

async function newGame(ev: Event): Promise<void> {
  ev.preventDefault();
  const config: Record<string, unknown> = {
    time_control: ($('tc') as HTMLInputElement).value.trim() || '-',
    mode: ($('mode') as HTMLSelectElement).value,
  };
  const fen = ($('start-fen') as HTMLInputElement).value.trim();
  if (fen) config.start_fen = fen;
  const agreement = ($('draw-agreement') as HTMLSelectElement).value;
  if (agreement !== 'allowed') config.draw_agreement = agreement;
  if (($('quickplay') as HTMLInputElement).checked) config.quickplay_finish = true;
  showError('');
  try {
    const created = await call<Created>('POST', '/v1/games', { config });
    history.replaceState(null, '', '/');
    board.set({ orientation: 'white' });
    start({
      id: created.id,
      tokens: created.tokens,
      config,
      state: created.state,
      moves: [],
      movesAt: 0,
      receivedAt: performance.now(),
      event: 0,
      log: [],
      logAt: 0,
      stream: null,
    });
  } catch (e) {
    showError(e instanceof Error ? e.message : String(e));
  }
}

export function setupPlay(): void {
  board = Chessground($('board'), {
    movable: { free: false, showDests: true, events: { after: onBoardMove } },
    draggable: { enabled: true },
    animation: { enabled: true, duration: 150 },
  });
  $('newgame').addEventListener('submit', (ev) => void newGame(ev));
  const toMove = (): Color => game?.state.to_move ?? 'white';
  const justMoved = (): Color => other(toMove());
  $('offer-draw').addEventListener('click', () => {
    const p = acting(justMoved());
    void post({ type: 'offer_draw', player: p }, [p]);
  });
  $('accept-draw').addEventListener('click', () => {
    const p = acting(game?.state.pending_offer ? other(game.state.pending_offer) : toMove());
    void post({ type: 'accept_draw', player: p }, [p]);
  });
  $('decline-draw').addEventListener('click', () => {
    const p = acting(game?.state.pending_offer ? other(game.state.pending_offer) : toMove());
    void post({ type: 'decline_draw', player: p }, [p]);
  });
  $('claim-move').addEventListener('click', () => setClaimMode(!claimMode && !!game));
  $('claim-cancel').addEventListener('click', () => setClaimMode(false));
  $('illegal-unnoticed').addEventListener('click', () => setUnnoticedMode(!unnoticedMode && !!game));
  $('unnoticed-cancel').addEventListener('click', () => setUnnoticedMode(false));
  $('claim-now').addEventListener('click', () => {
    const p = acting(toMove());
    void post({ type: 'claim', player: p, kind: claimKind(null) }, [p]);
  });
  $('resign').addEventListener('click', () => {
    const p = acting(toMove());
    void post({ type: 'resign', player: p }, [p]);
  });
  // a flag is seen fallen, an illegal move completed: the arbiter's call, or the opponent's claim
  $('flag').addEventListener('click', () => {
    const p = acting(toMove());
    void post({ type: 'flag', player: p }, ['arbiter', other(p), p]);
  });
  // the player on move completed an illegal move (not shown on this board, which takes legal moves only)
  $('illegal').addEventListener('click', () => {
    const p = acting(toMove());
    void post({ type: 'illegal_move', player: p }, ['arbiter', other(p), p]);
  });
  // the player on move touched a piece (9.4: no claim under 9.2/9.3 this turn; 9.1.2.1: the
  // opponent's pending offer is rejected): reported by that player, or seen by the arbiter
  $('touch').addEventListener('click', () => {
    const p = acting(toMove());
    void post({ type: 'touch', player: p }, [p, 'arbiter']);
  });
  setupDecisions((event, order) => void post(event, order), () => game?.moves ?? []);
  window.setInterval(renderClocks, 200);
}

/** Open the game of the page's link, if it names one (once the page's words are loaded). */
export async function joinFromLink(): Promise<void> {
  if (location.hash.includes('game=')) await join(location.hash);
}
