// The evidence a ruling may carry about "can this side still mate?": a
// helpmate line (UCI moves) or the reason none exists. The engines put it in
// "evidence" (a dead position, a flag fall); we look for it wherever it sits.

import { Chess } from 'chess.js';

export interface Line {
  fen: string;
  uci: string[];
  san: string[];
}

export interface Found {
  line: string[] | null;
  reason: string | null;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Search an evidence object (any nesting) for a helpmate line or a reason. */
export function findEvidence(evidence: unknown): Found {
  const found: Found = { line: null, reason: null };
  const walk = (v: unknown, depth: number): void => {
    if (depth > 5 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (!found.line && (k === 'line' || k === 'helpmate') && isStringArray(x) && x.length) {
        found.line = x;
      } else if (!found.reason && k === 'reason' && typeof x === 'string' && x) {
        found.reason = x;
      } else {
        walk(x, depth + 1);
      }
    }
  };
  walk(evidence, 0);
  return found;
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
