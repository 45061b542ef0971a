// The evidence of "can this side still mate?": a helpmate line (UCI moves),
// wherever it sits in a verdict or a ruling's evidence.

import { Chess } from 'chess.js';

export interface Line {
  fen: string;
  uci: string[];
  san: string[];
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Search an evidence object (any nesting) for a helpmate line. */
export function findLine(evidence: unknown, depth = 0): string[] | null {
  if (depth > 5 || evidence === null || typeof evidence !== 'object') return null;
  for (const [k, x] of Object.entries(evidence as Record<string, unknown>)) {
    if ((k === 'line' || k === 'helpmate') && isStringArray(x) && x.length) return x;
    const found = findLine(x, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Turn UCI moves from a FEN into SAN; stops at the first move that does not parse. */
export function toLine(fen: string, uci: string[]): Line {
  const chess = new Chess(fen);
  const san: string[] = [];
  const ok: string[] = [];
  for (const u of uci) {
    try {
      const m = chess.move({ from: u.slice(0, 2), to: u.slice(2, 4), promotion: u[4] });
      san.push(m.san);
      ok.push(u);
    } catch {
      break;
    }
  }
  return { fen, uci: ok, san };
}

/** The FENs after each move of the line (for playing it through on a board). */
export function lineFens(line: Line): { fen: string; last: [string, string] }[] {
  const chess = new Chess(line.fen);
  return line.uci.map((u) => {
    chess.move({ from: u.slice(0, 2), to: u.slice(2, 4), promotion: u[4] });
    return { fen: chess.fen(), last: [u.slice(0, 2), u.slice(2, 4)] as [string, string] };
  });
}
