import type { ComponentChildren, InputHTMLAttributes, JSX } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { ApiError } from './api';
import { LANGS, type Lang, useI18n } from './i18n';
import type { LinkProps } from './router';

// The pieces every page is made of. Native elements first (a <button>, a <label for>, a <table>), so a
// keyboard and a screen reader work without extra ARIA; ARIA only where HTML has nothing (live regions).

let firstPage = true;

/** A page: its <h1>, the document title, and focus on the heading after a navigation (not on first load). */
export function Page(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · agentpay`;
  }, [props.title]);
  useEffect(() => {
    if (firstPage) firstPage = false;
    else heading.current?.focus();
  }, []);
  return (
    <>
      <div class="page-head">
        <h1 ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions}
      </div>
      {props.children}
    </>
  );
}

export interface NavItem {
  to: string;
  label: string;
}

export function Shell(props: {
  appName: string;
  nav: NavItem[];
  currentPath: string;
  Link: (p: LinkProps) => JSX.Element;
  userEmail?: string | undefined;
  /** Where the person's own account (sessions, tokens) lives: the email links there. */
  meLink?: string;
  onSignOut?: (() => void) | undefined;
  children: ComponentChildren;
}) {
  const { t } = useI18n();
  const { Link } = props;
  const active = (to: string) =>
    to === '' ? props.currentPath === '' : props.currentPath === to || props.currentPath.startsWith(`${to}/`);
  return (
    <>
      <a class="skip" href="#main">
        {t('shell.skip')}
      </a>
      <header class="top">
        <div class="brand">
          <Link to="">{props.appName}</Link>
        </div>
        {props.nav.length > 0 && (
          <nav aria-label={t('shell.nav')}>
            <ul>
              {props.nav.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} aria-current={active(item.to) ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div class="tools">
          <LanguageSelect />
          {props.userEmail &&
            (props.meLink !== undefined ? (
              <Link to={props.meLink} class="who">
                {props.userEmail}
              </Link>
            ) : (
              <span class="who">{props.userEmail}</span>
            ))}
          {props.onSignOut && (
            <button type="button" class="secondary" onClick={props.onSignOut}>
              {t('shell.signOut')}
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  );
}

export function LanguageSelect() {
  const { lang, setLang, t } = useI18n();
  const id = useId();
  return (
    <span class="lang">
      <label for={id}>{t('shell.language')}</label>
      <select id={id} value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {l === 'es-MX' ? 'Español (México)' : 'English'}
          </option>
        ))}
      </select>
    </span>
  );
}

/** A labelled input with its hint and error read out with it. */
export function Field(
  props: {
    label: string;
    hint?: string | undefined;
    error?: string | undefined;
  } & InputHTMLAttributes,
) {
  const { label, hint, error, ...input } = props;
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Checkboxes in a fieldset, one per value (the roles a person may be given, say), each checked one sent as
 * the form field `name`; the hint and the error are read out with the group.
 */
export function CheckboxChoices(props: {
  legend: string;
  name: string;
  values: readonly string[];
  labelOf(value: string): string;
  checked?: readonly string[] | undefined;
  hint?: string | undefined;
  error?: string | undefined;
}) {
  const id = useId();
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <fieldset class="choices" aria-describedby={described || undefined}>
      <legend>{props.legend}</legend>
      {props.values.map((value) => (
        <label key={value}>
          <input
            type="checkbox"
            name={props.name}
            value={value}
            defaultChecked={props.checked?.includes(value)}
          />
          {props.labelOf(value)}
        </label>
      ))}
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

/** A message read out when it appears: `alert` for failures, `status` for the rest. */
export function Notice(props: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** What went wrong with a call, in the person's language; the API's own message for a refusal it explains. */
export function ErrorNotice(props: { error: unknown }) {
  const { t } = useI18n();
  const error = props.error;
  let text = t('error.generic');
  if (error instanceof ApiError) {
    if (error.status === 0) text = t('error.network');
    else if (error.status === 401) text = t('error.signedOut');
    else if (error.status === 403) text = t('error.forbidden');
    else if (error.status === 404) text = t('error.notFound');
    else if (error.status === 503) text = t('error.unavailable');
    else if (error.status === 400 || error.status === 409) text = `${t('error.refused')} ${error.message}`;
  }
  return <Notice kind="error">{text}</Notice>;
}

export function Loading() {
  const { t } = useI18n();
  return (
    <p class="loading" role="status">
      {t('common.loading')}
    </p>
  );
}

/**
 * A table that scrolls sideways inside its own box on a narrow phone, never the page; the box is focusable
 * and named so a keyboard can scroll it.
 */
export function TableRegion(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
    <section class="table-region" tabIndex={0} aria-label={props.label}>
      {props.children}
    </section>
  );
}

/** The server's next page, by the cursor it gave; back to the first page. */
export function Pager(props: {
  next?: string | undefined;
  onNext(cursor: string): void;
  onFirst?: () => void;
}) {
  const { t } = useI18n();
  if (!props.next && !props.onFirst) return null;
  return (
    <nav class="pager" aria-label={t('common.pages')}>
      {props.onFirst && (
        <button type="button" class="secondary" onClick={props.onFirst}>
          {t('common.firstPage')}
        </button>
      )}
      {props.next && (
        <button type="button" onClick={() => props.next && props.onNext(props.next)}>
          {t('common.nextPage')}
        </button>
      )}
    </nav>
  );
}
