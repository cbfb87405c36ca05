import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// A small history router under one base path (`/console/`): the gateway answers index.html for every path
// below it, so a reload or a shared link opens the same page. Links are real <a href>s; a click that a
// person means for a new tab is left to the browser.

export interface Location {
  /** The path below the base, without leading slash: `merchants/M1`. */
  path: string;
  query: URLSearchParams;
}

export interface LinkProps {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}

export interface Router {
  base: string;
  useLocation(): Location;
  navigate(to: string, opts?: { replace?: boolean }): void;
  href(to: string): string;
  Link(props: LinkProps): JSX.Element;
}

export function createRouter(base: string): Router {
  const listeners = new Set<() => void>();
  const read = (): Location => {
    const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) : '';
    return { path: decodeURI(path).replace(/\/$/, ''), query: new URLSearchParams(location.search) };
  };
  window.addEventListener('popstate', () => {
    for (const listener of listeners) listener();
  });
  const href = (to: string) => `${base}${to.replace(/^\//, '')}`;
  const navigate = (to: string, opts?: { replace?: boolean }) => {
    if (opts?.replace) history.replaceState(null, '', href(to));
    else history.pushState(null, '', href(to));
    window.scrollTo(0, 0);
    for (const listener of listeners) listener();
  };
  return {
    base,
    href,
    navigate,
    useLocation() {
      const [state, setState] = useState(read);
      useEffect(() => {
        const listener = () => setState(read());
        listeners.add(listener);
        return () => listeners.delete(listener);
      }, []);
      return state;
    },
    Link({ to, children, ...rest }) {
      return (
        <a
          {...rest}
          href={href(to)}
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
              return;
            event.preventDefault();
            navigate(to);
          }}
        >
          {children}
        </a>
      );
    },
  };
}

/** Matches `merchants/:mchNo` against a path; the named parts, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = got[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = value;
    else if (part !== value) return null;
  }
  return params;
}
