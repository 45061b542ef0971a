// Moves typed on the keyboard, as on lichess: SAN ("e4", "Nf3", "exd5",
// "O-O", "e8=Q") or UCI ("g1f3"), with the small slips people make (a
// lower-case piece letter, "0-0", a missing "x" or "+").

import { Chess, type Move } from 'chess.js';

/** The legal move ``text`` names in ``fen``, or null. */
export function typedMove(fen: string, text: string): Move | null {
  const raw = text.trim().replace(/0/g, 'O').replace(/[+#!?]+$/, '');
  if (!raw) return null;
  const attempts = [raw];
  // "nf3" for Nf3; "b" stays a pawn's file first ("bxc3"), then a bishop
  if (/^[nrqkb]/.test(raw)) attempts.push(raw[0].toUpperCase() + raw.slice(1));
  if (/^o-o/i.test(raw)) attempts.push(raw.toUpperCase());
  for (const attempt of attempts) {
    const chess = new Chess(fen);
    try {
      const uci = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/.exec(attempt);
      return uci
        ? chess.move({ from: uci[1], to: uci[2], promotion: uci[3] })
        : chess.move(attempt, { strict: false });
    } catch {
      /* the next reading */
    }
  }
  return null;
}
