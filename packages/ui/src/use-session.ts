import { useEffect, useState } from 'preact/hooks';
import type { ApiClient, Session } from './api';

/**
 * The tab's session, checked with the server once when the app starts (`api.restore()`): a tab that did not
 * sign in itself (a new tab, a link from an e-mail, a restored browser) gets the session its cookie holds,
 * and a tab whose session ended elsewhere forgets it. `checking` until the server answered.
 */
export function useSession(api: ApiClient) {
  const [session, setSession] = useState<Session | null>(api.session());
  const [checking, setChecking] = useState(true);
  useEffect(() => {
    let live = true;
    void api.restore().then((restored) => {
      if (!live) return;
      setSession(restored);
      setChecking(false);
    });
    return () => {
      live = false;
    };
  }, [api]);
  return { session, setSession, checking };
}
