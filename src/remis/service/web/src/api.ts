// The HTTP API of the remis service (/v1), JSON in and out. A refusal comes
// back as {"detail": "...", "code": "...", "params": {...}}; it is thrown as
// an ApiError carrying them (the page words it from the code, see errors.ts).

export class ApiError extends Error {
  /** status 0: the server could not be reached */
  constructor(
    public status: number,
    public detail: string,
    public code = '',
    public params: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

/** A fresh event id: the service applies an event sent twice with one id once. */
export function newId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes); // randomUUID needs a secure context; a LAN address is not one
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, e instanceof Error ? e.message : String(e));
  }
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const body = (data ?? {}) as { detail?: unknown; code?: unknown; params?: unknown };
    const detail = body.detail;
    const text =
      typeof detail === 'string' ? detail : detail ? JSON.stringify(detail) : `HTTP ${res.status}`;
    const params = body.params && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : {};
    throw new ApiError(res.status, text, typeof body.code === 'string' ? body.code : '', params);
  }
  return data as T;
}

export type Color = 'white' | 'black';

export interface Ruling {
  message?: string;
  params?: Record<string, unknown>;
  explanation?: string;
  article?: string;
  result?: string;
  termination?: string;
  ply?: number;
  player?: string;
  kind?: string;
  move?: string | null;
  evidence?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ClockInfo {
  /** the clock that runs from `at` on; null while both stand */
  running: Color | null;
  at: number;
}

export interface GameState {
  over: boolean;
  result: string | null;
  termination?: string | null;
  article?: string | null;
  explanation?: string | null;
  message?: string | null;
  params?: Record<string, unknown>;
  to_move: Color;
  ply: number;
  fen: string;
  clocks?: Record<Color, number | null>;
  clock?: ClockInfo;
  pending_offer: Color | null;
  claimable: Ruling[];
  illegal_moves?: Record<Color, number>;
  /** the ruling log so far: not sent by the server (see rulings), kept by the page */
  log: Ruling[];
  /** the entries of the ruling log that the last event wrote */
  rulings?: Ruling[];
  awaiting_arbiter?: { kind: string; player: string; article: string } | null;
  /** the piece a player touched this turn (4.3), when its square was recorded */
  touched?: { player: Color; square: string | null } | null;
  /** players' open requests to the arbiter */
  requests?: { player: Color; kind: string; comment: string | null }[];
  /** the first-move rule: who must make a first move, by when (seconds since the start) */
  first_move_due?: { player: Color; at: number } | null;
  [key: string]: unknown;
}

/** Answer of GET /v1/time-control: a control read, described and classified by the server. */
export interface TimeControlView {
  time_control: string;
  text: string;
  periods: { moves: number | null; minutes: number; increment: number; delay: number }[];
  description: string;
  fide_mode: 'standard' | 'rapid' | 'blitz' | null;
  classification: string;
  modes: { mode: 'online' | 'standard' | 'rapid' | 'blitz'; meaning: string; supervision: boolean; quickplay_finish: boolean }[];
  supervision: Record<'full' | 'partial', string>;
  quickplay: string;
  first_move_seconds: number;
}

/** One move of GET /v1/games/{id}/moves: what the arbiter's board holds. */
export interface PlayedMove {
  ply: number;
  player: Color;
  move: string;
  /** an illegal move standing on the board (Article 7.5.1) */
  standing: boolean;
}

export interface GameView {
  id: string;
  config: Record<string, unknown>;
  state: GameState;
  /** seconds since the game was created when the answer was made */
  now?: number;
}

export interface Created {
  id: string;
  tokens: Record<Color | 'arbiter' | 'spectator', string>;
  state: GameState;
}

export interface PositionReport {
  fen: string;
  end: Ruling | null;
  claims: Ruling[];
  error?: { message: string } | null;
  [key: string]: unknown;
}

export interface GameReport {
  game: number;
  headers: Record<string, string>;
  plies: number;
  end: Ruling | null;
  claims: Ruling[];
  error: { ply?: number; message: string } | null;
  [key: string]: unknown;
}
