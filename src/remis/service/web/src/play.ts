// The "Play" panel: a live game on the board, every action sent to the
// arbiter as an event through the HTTP API; the arbiter's state drawn back.

import { Chess, type Square } from 'chess.js';
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Dests, Key } from 'chessground/types';

import { ApiError, call, type Color, type Created, type GameState } from './api';
import { $, el } from './dom';
import { sideName, t } from './i18n';
import { clockText, rulingBox, rulingItem } from './views';

type Who = Color | 'arbiter';

interface Game {
  id: string;
  tokens: Record<Who, string>;
  state: GameState;
  sans: string[];
  receivedAt: number;
}

let game: Game | null = null;
let board: Api;
let claimMode = false;
let busy = false;

const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

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

/** Post an event, trying the tokens in order (the next one on 403). */
async function post(event: Record<string, unknown>, order: Who[]): Promise<boolean> {
  if (!game || busy) return false;
  busy = true;
  showError('');
  try {
    let last: unknown = null;
    for (const who of order) {
      try {
        const res = await call<{ state: GameState }>(
          'POST',
          `/v1/games/${game.id}/events`,
          event,
          game.tokens[who],
        );
        setState(res.state);
        return true;
      } catch (e) {
        last = e;
        if (e instanceof ApiError && e.status === 403) continue;
        break;
      }
    }
    showError(last instanceof Error ? last.message : String(last));
    render();
    return false;
  } finally {
    busy = false;
  }
}

function setState(state: GameState): void {
  if (!game) return;
  game.state = state;
  game.receivedAt = performance.now();
  render();
}

function onBoardMove(orig: Key, dest: Key): void {
  if (!game) return;
  const st = game.state;
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
  void post({ type: 'move', player, move: san }, [player]).then((ok) => {
    if (ok && game) {
      game.sans.push(san);
      renderMoves();
    }
  });
}

/** The claim's kind: that of a claimable draw with this move, else the one chosen. */
function claimKind(move: string | null): string {
  const match = game?.state.claimable.find((c) => (c.move ?? null) === move);
  return match?.kind ?? ($('claim-kind') as HTMLSelectElement).value;
}

function setClaimMode(on: boolean): void {
  claimMode = on;
  $('claim-banner').hidden = !on;
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
    movable: { color: st.over ? undefined : st.to_move, dests: st.over ? new Map() : dests(st.fen) },
  });
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
  $('log').replaceChildren(...(st.log ?? []).map(rulingItem));
  if (st.illegal_moves) {
    $('log').append(el('li', {}, t('ui.illegal_moves', st.illegal_moves)));
  }
  renderClocks();
  renderMoves();
}

function renderMoves(): void {
  if (!game) return;
  const items: HTMLElement[] = [];
  for (let i = 0; i < game.sans.length; i += 2) {
    items.push(el('li', {}, [game.sans[i], game.sans[i + 1] ?? ''].join(' ')));
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
  showError('');
  try {
    const created = await call<Created>('POST', '/v1/games', { config });
    game = { id: created.id, tokens: created.tokens, state: created.state, sans: [], receivedAt: performance.now() };
    document.body.dataset.game = created.id;
    setClaimMode(false);
    render();
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
  $('illegal').addEventListener('click', () => {
    const p = acting(justMoved());
    void post({ type: 'illegal_move', player: p }, ['arbiter', other(p), p]);
  });
  window.setInterval(renderClocks, 200);
}
