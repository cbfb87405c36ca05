import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';

// Spanish (es-MX) first, English second (docs/console.md "Languages"). Each app passes its dictionaries; the
// shared pages' words are in shared-messages.ts. A missing word shows its key, which a test notices.

export const LANGS = ['es-MX', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export type Dictionary = Readonly<Record<string, string>>;
export type Dictionaries = Readonly<Record<Lang, Dictionary>>;

const STORAGE_KEY = 'agentpay.lang';

function savedLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'es-MX') return saved;
  } catch {
    // Storage refused (private mode): the default it is.
  }
  return 'es-MX';
}

interface I18n {
  lang: Lang;
  setLang(lang: Lang): void;
  t(key: string, vars?: Record<string, string | number>): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider(props: { dictionaries: Dictionaries; children: ComponentChildren }) {
  const [lang, setLangState] = useState<Lang>(savedLang);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo<I18n>(
    () => ({
      lang,
      setLang(next) {
        try {
          localStorage.setItem(STORAGE_KEY, next);
        } catch {
          // Kept for this page only.
        }
        document.documentElement.lang = next;
        setLangState(next);
      },
      t(key, vars) {
        const text = props.dictionaries[lang][key] ?? key;
        return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => String(vars[name] ?? whole)) : text;
      },
    }),
    [lang, props.dictionaries],
  );
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}

/** Merges dictionaries (shared words first, an app's own after). */
export function mergeDictionaries(...parts: Dictionaries[]): Dictionaries {
  const merged = { 'es-MX': {}, en: {} } as Record<Lang, Record<string, string>>;
  for (const part of parts) {
    Object.assign(merged['es-MX'], part['es-MX']);
    Object.assign(merged.en, part.en);
  }
  return merged;
}

/** One dictionary per language; the compiler insists English names every key Spanish does. */
export function defineDictionaries<K extends string>(
  es: Record<K, string>,
  en: Record<K, string>,
): Dictionaries {
  return { 'es-MX': es, en };
}
