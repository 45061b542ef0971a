// Time controls as players write them ("3+2", "90+30", "40/90, 30+30",
// "1/2+0"): the server reads them, says in words what will be played and
// which FIDE class that is (GET /v1/time-control); the page keeps no rule
// of its own about them, only the presets.

import { call, type TimeControlView } from './api';
import { currentLang } from './i18n';

export const PRESETS = ['1+0', '3+0', '3+2', '5+3', '10+0', '10+5', '15+10', '30+0', '30+20', '90+30', '40/90, 30+30'];

/** A control as typed, read by the server in the page's language (an ApiError when refused). */
export function readControl(text: string): Promise<TimeControlView> {
  return call<TimeControlView>('GET', `/v1/time-control?text=${encodeURIComponent(text)}&lang=${currentLang()}`);
}

/** A game's time_control (PGN's syntax) as the server describes it. */
export function describeConfig(pgn: string): Promise<TimeControlView> {
  return call<TimeControlView>('GET', `/v1/time-control?pgn=${encodeURIComponent(pgn)}&lang=${currentLang()}`);
}

/** A period of the structured form in players' notation: "40/90+30", "30+0". */
export function periodText(moves: string, minutes: string, increment: string): string {
  const m = moves.trim();
  const inc = increment.trim() || '0';
  return `${m ? `${m}/` : ''}${minutes.trim() || '0'}+${inc}`;
}
