import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import * as z from 'zod/mini';
import type { ApiClient } from './api';
import { useResource } from './use-resource';

// What the signed-in person may do, as the server's one permission table says (`GET /admin/me` or
// `GET /dashboard/api/me` answer `may: ["METHOD /route/:pattern", …]`). Pages hide what a role may not do;
// the API refuses it anyway (CONTRACT section 18).

const me = z.looseObject({ roles: z.array(z.string()), may: z.array(z.string()) });

const MayContext = createContext<(route: string) => boolean>(() => false);

/**
 * Loads the person's permissions, again when `sessionKey` changes (the session's CSRF token, say). Put it
 * around the signed-in pages only: without a session or a token, `/me` answers 401 and the page signs in.
 */
export function MayProvider(props: {
  api: ApiClient;
  mePath: string;
  sessionKey?: string | undefined;
  children: ComponentChildren;
}) {
  const loaded = useResource(async () => (await props.api.get(props.mePath, me)).may, [props.sessionKey]);
  const allowed = new Set(loaded.data ?? []);
  return <MayContext.Provider value={(route) => allowed.has(route)}>{props.children}</MayContext.Provider>;
}

/** `may('POST /admin/deliveries/:id/resend')`: whether to offer that action. */
export function useMay(): (route: string) => boolean {
  return useContext(MayContext);
}
