// Refusals in the reader's language. Every error the service sends has a
// stable code (and the params its words need); the page words it from the
// catalogues (err.<code>, or the code itself for a time control's), never
// from the English detail, and never shows an internal id.

import { ApiError } from './api';
import { has, sideName, t, translateParam } from './i18n';

/** Codes whose words the page already had under another id. */
const ALIASES: Record<string, string> = {
  missing_token: 'ui.err_link_incomplete',
  bad_token: 'ui.err_link_wrong',
  no_game: 'ui.err_no_game',
  database_unavailable: 'ui.err_busy',
  busy: 'ui.err_busy',
  concurrent_writers: 'ui.err_busy',
  malformed_json: 'err.invalid_request',
};

/** The params of a code in the reader's words: a side's name, a reason translated. */
function words(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === 'player' && (v === 'white' || v === 'black')) out[k] = sideName(v);
    else out[k] = typeof v === 'string' && k === 'reason' ? translateParam(v) : v;
  }
  return out;
}

/** The catalogue id of an error code: the code itself (tc.*), err.<code>, or its group's. */
export function errorKey(code: string): string | null {
  if (ALIASES[code]) return ALIASES[code];
  if (code.startsWith('tc.') && has(code)) return code;
  if (has(`err.${code}`)) return `err.${code}`;
  const group = code.split('.')[0];
  return group !== code && has(`err.${group}`) ? `err.${group}` : null;
}

/** A failed request in plain words: what happened and, where it helps, what to do. */
export function plainError(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 0) return t('ui.err_network');
    const key = errorKey(e.code);
    if (key) return t(key, words(e.params));
    if (e.status === 409) return t('err.event_refused');
    if (e.status >= 500) return t('err.internal_error');
    return t('err.generic');
  }
  return e instanceof Error ? e.message : String(e);
}
