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

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a parameter slot matches; the others match any text, itself translated (as remis.i18n does). */
const slots: Record<string, string> = {
  n: '\\d+',
  move: '\\S+?',
  material: '[^()]+?',
  squares: '[a-h1-8, ]+?',
  player: 'White|Black|Red|Sente|Gote',
};
/** Slots whose text stays as it is (numbers, moves, material, squares). */
const kept = new Set(['n', 'move', 'material', 'squares']);
let patterns: { key: string; re: RegExp; names: string[] }[] | null = null;

function paramPatterns(): { key: string; re: RegExp; names: string[] }[] {
  if (patterns) return patterns;
  const out = Object.entries(english)
    .filter(([key]) => key.startsWith('param.'))
    .map(([key, pattern]) => {
      const names: string[] = [];
      let literal = 0;
      const re = pattern
        .split(/\{(\w+)\}/)
        .map((part, i) => {
          if (i % 2 === 0) {
            literal += part.length;
            return escapeRe(part);
          }
          names.push(part);
          return `(${slots[part] ?? '.+?'})`;
        })
        .join('');
      return { key, re: new RegExp(`^(?:${re})$`), names, literal };
    });
  // the most literal text first: "insufficient material: {reason}" before "{player}: {reason}"
  out.sort((a, b) => b.literal - a.literal);
  patterns = out;
  return out;
}

/** Translate a parameter value that is one of the rulings' English phrases, its slots and list items too. */
export function translateParam(value: string, depth = 0): string {
  if (depth > 6) return value;
  for (const { key, re, names } of paramPatterns()) {
    const m = re.exec(value);
    if (m) {
      const groups: Record<string, string> = {};
      names.forEach((name, i) => {
        groups[name] = kept.has(name) ? m[i + 1] : translateParam(m[i + 1], depth + 1);
      });
      return format(texts[key] ?? english[key], groups);
    }
  }
  for (const sep of ['; ', ', ']) {
    if (value.includes(sep)) return value.split(sep).map((part) => translateParam(part, depth + 1)).join(sep);
  }
  return value;
}

/** A ruling, claim or log entry in the reader's language (English explanation as fallback). */
export function explain(r: Explained): string {
  if (r.message && texts[r.message]) {
    const params: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.params ?? {})) {
      params[k] = typeof v === 'string' ? translateParam(v) : v;
    }
    return format(texts[r.message], params);
  }
  return r.explanation ?? r.message ?? '';
}

export function sideName(color: string | null | undefined): string {
  return color === 'black' ? t('ui.black') : t('ui.white');
}
