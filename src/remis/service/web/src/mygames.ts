// The games this browser has been part of, kept in localStorage so that a
// player finds the way back to them: each with the links (tokens) it holds.

export type Role = 'white' | 'black' | 'arbiter' | 'spectator';

export interface Saved {
  id: string;
  /** the role this browser plays in the game */
  role: Role;
  tokens: Partial<Record<Role, string>>;
  created: number;
  timeControl: string;
  result?: string | null;
}

const KEY = 'remis.games';
const LIMIT = 30;

export function savedGames(): Saved[] {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(data) ? (data as Saved[]).filter((g) => g && typeof g.id === 'string') : [];
  } catch {
    return [];
  }
}

/** Remember a game (merging the tokens with those already kept), newest first. */
export function remember(game: Saved): void {
  const all = savedGames();
  const old = all.find((g) => g.id === game.id);
  const merged: Saved = old
    ? { ...old, ...game, tokens: { ...old.tokens, ...game.tokens }, created: old.created }
    : game;
  const rest = all.filter((g) => g.id !== game.id);
  localStorage.setItem(KEY, JSON.stringify([merged, ...rest].slice(0, LIMIT)));
}

export function forget(id: string): void {
  localStorage.setItem(KEY, JSON.stringify(savedGames().filter((g) => g.id !== id)));
}

export function linkFor(id: string, role: Role, token: string): string {
  return `${location.origin}/#game=${id}&as=${role}&token=${token}`;
}
