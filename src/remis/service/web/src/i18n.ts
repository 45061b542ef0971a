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
  if (Object.keys(english).length === 0) english = await fetchCatalogue('en');
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

const slots: Record<string, string> = { n: '(\\d+)', move: '(\\S+?)' };

/** Translate a parameter value that is one of the rulings' English words. */
export function translateParam(value: string): string {
  for (const [key, pattern] of Object.entries(english)) {
    if (!key.startsWith('param.')) continue;
    const names: string[] = [];
    const re = pattern
      .split(/\{(\w+)\}/)
      .map((part, i) => {
        if (i % 2 === 0) return escapeRe(part);
        names.push(part);
        return slots[part] ?? '(.+?)';
      })
      .join('');
    const m = new RegExp(`^${re}$`).exec(value);
    if (m) {
      const groups: Record<string, string> = {};
      names.forEach((name, i) => (groups[name] = m[i + 1]));
      return format(texts[key] ?? pattern, groups);
    }
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
