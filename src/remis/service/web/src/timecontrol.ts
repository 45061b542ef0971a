// Time controls as players write them: "3+2" is three minutes and two
// seconds a move, "90+30" ninety minutes and thirty seconds. The service
// takes PGN's TimeControl syntax in seconds ("180+2"), which may be typed
// as well when it says more (periods "40/5400:1800+30", a delay "300d5").

export interface Parsed {
  /** the service's time_control */
  pgn: string;
  /** the minutes and seconds to show back, e.g. { minutes: 3, increment: 2 } */
  minutes?: number;
  increment?: number;
}

export const PRESETS = ['1+0', '3+0', '3+2', '5+3', '10+0', '10+5', '15+10', '30+0', '30+20', '90+30'];

/** Parse a time control, or null when it is not one. */
export function parseTimeControl(text: string): Parsed | null {
  const t = text.trim().replace(/\s+/g, '').replace(',', '.');
  if (t === '-' || t === '') return t === '-' ? { pgn: '-' } : null;
  const simple = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(t);
  if (simple) {
    const minutes = Number(simple[1]);
    const increment = Number(simple[2] ?? 0);
    if (!(minutes > 0) || minutes > 600 || increment > 600) return null;
    const seconds = Math.round(minutes * 60 * 1000) / 1000;
    return { pgn: increment ? `${seconds}+${increment}` : `${seconds}`, minutes, increment };
  }
  // PGN syntax, already in seconds: moves/seconds periods, or a delay
  if (/^(\d+\/)?\d+(\.\d+)?(\+\d+(\.\d+)?)?(d\d+(\.\d+)?)?(:(\d+\/)?\d+(\.\d+)?(\+\d+(\.\d+)?)?(d\d+(\.\d+)?)?)*$/.test(t)
    && /[/:d]/.test(t)) {
    return { pgn: t };
  }
  return null;
}

/** "180+2" back into "3+2" for display; PGN periods stay as they are. */
export function describeTimeControl(pgn: unknown): string {
  if (typeof pgn !== 'string') return '';
  const m = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(pgn);
  if (!m) return pgn;
  const minutes = Number(m[1]) / 60;
  const shown = Number.isInteger(minutes) ? String(minutes) : String(Math.round(minutes * 100) / 100);
  return `${shown}+${m[2] ?? 0}`;
}
