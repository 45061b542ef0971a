// Words of the page and of the rulings, from the gettext catalogues served at
// /v1/i18n/{lang} ({id: text}). Ruling objects carry "message" (an id) and
// "params"; words inside params ("White", "2 minutes", ", and Nf3 must be
// played") are translated through the catalogue's param.* patterns, as
// remis.i18n.translate does on the server.

export const LANGUAGES = ['en', 'cs', 'pl'] as const;
export type Lang = (typeof LANGUAGES)[number];

export interface Explained {
  message?: string;
  params?: Record<string, unknown>;
  explanation?: string;
  article?: string;
}

let lang: Lang = 'en';
let texts: Record<string, string> = {};
let english: Record<string, string> = {};

export function currentLang(): Lang {
  return lang;
}

export function pickLanguage(): Lang {
  const saved = localStorage.getItem('remis.lang');
  if (saved && (LANGUAGES as readonly string[]).includes(saved)) return saved as Lang;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.split('-')[0].toLowerCase();
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Lang;
  }
  return 'en';
}

async function fetchCatalogue(l: Lang): Promise<Record<string, string>> {
  const res = await fetch(`/v1/i18n/${l}`);
  if (!res.ok) throw new Error(`/v1/i18n/${l}: HTTP ${res.status}`);
  return (await res.json()) as Record<string, string>;
}

export async function setLanguage(l: Lang): Promise<void> {
  if (Object.keys(english).length === 0) {
    english = await fetchCatalogue('en');
    patterns = null;
  }
  texts = l === 'en' ? english : await fetchCatalogue(l);
  lang = l;
  localStorage.setItem('remis.lang', l);
  document.documentElement.lang = l;
  document.querySelectorAll<HTMLElement>('[data-i18n]').forEach((el) => {
    const key = el.dataset.i18n as string;
    if (texts[key]) el.textContent = texts[key];
  });
  document.querySelectorAll<HTMLElement>('[data-i18n-label]').forEach((el) => {
    const key = el.dataset.i18nLabel as string;
    if (texts[key]) el.setAttribute('aria-label', texts[key]);
  });
}

export function format(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) =>
    name in params ? String(params[name]) : m,
  );
}

/** A page text by id, with {placeholders} filled. */
export function t(key: string, params: Record<string, unknown> = {}): string {
  return format(texts[key] ?? english[key] ?? key, params);
}

/** Whether the catalogues have a text of this id. */
export function has(key: string): boolean {
  return key in english;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What a parameter slot matches; the others match any text, itself translated
 * (as remis.i18n does). Optional slots hold nothing or their template's text
 * (remis.reasons.OPTIONAL).
 */
const slots: Record<string, string> = {
  n: '\\d+',
  move: '\\S+?',
  moves: '[a-h][1-8][a-h][1-8][qrbn]?(?: [a-h][1-8][a-h][1-8][qrbn]?)*',
  material: '[^()]+?',
  squares: '[a-h1-8, ]+?',
  player: 'White|Black|Red|Sente|Gote',
  year: '\\d{4}',
  date: '\\d{4}\\.\\d\\d\\.\\d\\d',
};
const optional: Record<string, string> = {
  after: 'param.after_forced',
  pawns: 'param.frozen_pawns',
  example: 'param.every_move_example',
};
/** Slots whose text stays as it is (numbers, moves, squares, dates). */
const kept = new Set(['n', 'move', 'moves', 'squares', 'year', 'date']);
/** Material as remis writes it: "K+R+B v K+N". */
const MATERIAL = /^K(?:\+[QRBNP])* v K(?:\+[QRBNP])*$/;
let patterns: { key: string; re: RegExp; names: string[] }[] | null = null;

/** A template's regular expression (its slots as groups when `names` is given) and the length of its literal text. */
function templateRe(template: string, names?: string[]): { re: string; literal: number } {
  let literal = 0;
  const re = template
    .split(/\{(\w+)\}/)
    .map((part, i) => {
      if (i % 2 === 0) {
        literal += part.length;
        return escapeRe(part);
      }
      const slot = part in optional ? `(?:${templateRe(english[optional[part]] ?? '').re})?` : (slots[part] ?? '.+?');
      if (!names) return `(?:${slot})`;
      names.push(part);
      return `(${slot})`;
    })
    .join('');
  return { re, literal };
}

function paramPatterns(): { key: string; re: RegExp; names: string[] }[] {
  if (patterns) return patterns;
  const out = Object.entries(english)
    .filter(([key]) => key.startsWith('param.'))
    .map(([key, pattern]) => {
      const names: string[] = [];
      const { re, literal } = templateRe(pattern, names);
      return { key, re: new RegExp(`^(?:${re})$`), names, literal };
    });
  // the most literal text first: a sentence of its own before one that would take it for a slot's text
  out.sort((a, b) => b.literal - a.literal);
  patterns = out;
  return out;
}

/** "K+B v K" with the reader's piece letters ("K+S proti K" in Czech). */
function material(value: string): string {
  const letters = t('notation.pieces').split(' ');
  const local = (side: string): string => side.replace(/[KQRBNP]/g, (c) => letters['KQRBNP'.indexOf(c)] ?? c);
  const [white, black] = value.split(' v ');
  return t('notation.versus', { white: local(white), black: local(black) });
}

/** Translate a parameter value that is one of the rulings' English phrases (the engine's reasons among them), its slots and list items too. */
export function translateParam(value: string, depth = 0): string {
  if (depth > 8) return value;
  if (MATERIAL.test(value)) return material(value);
  for (const { key, re, names } of paramPatterns()) {
    const m = re.exec(value);
    if (m) {
      const groups: Record<string, string> = {};
      names.forEach((name, i) => {
        groups[name] = kept.has(name) ? m[i + 1] : translateParam(m[i + 1] ?? '', depth + 1);
      });
      return format(texts[key] ?? english[key], groups);
    }
  }
  for (const sep of ['; ', ', ']) {
    if (value.includes(sep)) return value.split(sep).map((part) => translateParam(part, depth + 1)).join(sep);
  }
  return value;
}

/** A parameter in the reader's language: a termination id in words, English phrases translated. */
function param(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (name === 'termination' && texts[`termination.${value}`]) return texts[`termination.${value}`];
  return translateParam(value);
}

/** Words as a sentence: the first letter in upper case, a full stop at the end. */
export function sentence(text: string): string {
  const s = text.trim().replace(/[.]$/, '');
  return s ? `${s[0].toUpperCase()}${s.slice(1)}.` : '';
}

/**
 * A ruling, claim or log entry in the reader's language (English explanation
 * as fallback). The engine's reason, which the templates put in parentheses
 * inside the sentence, follows it as a sentence of its own: short sentences,
 * no parentheses within parentheses.
 */
export function explain(r: Explained): string {
  if (r.message && texts[r.message]) {
    const params: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.params ?? {})) params[k] = param(k, v);
    const template = texts[r.message];
    if (typeof params.reason === 'string' && template.includes(' ({reason})')) {
      return `${format(template.replace(' ({reason})', ''), params)} ${sentence(params.reason)}`;
    }
    return format(template, params);
  }
  return r.explanation ?? r.message ?? '';
}

export function sideName(color: string | null | undefined): string {
  return color === 'black' ? t('ui.black') : t('ui.white');
}
