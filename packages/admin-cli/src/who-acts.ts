import type { Io } from './cli.js';
import type * as commands from './commands.js';
import { type Credentials, readCredentials, sameUrl } from './credentials.js';
import type { ApiTarget } from './http.js';

const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';

/**
 * Who the command acts as (CONTRACT.md section 17): a token given explicitly (--token, else ADMIN_TOKEN),
 * said on stderr; else the person who logged in, from the credentials file. Never a default token.
 */
export function actor(
  values: commands.Context['values'],
  env: NodeJS.ProcessEnv,
  credentialsFile: string,
  acts: boolean,
  io: Io,
): Pick<ApiTarget, 'baseUrl' | 'token' | 'noToken' | 'unauthorizedHint'> {
  const explicitUrl = (values['admin-url'] as string | undefined) ?? (env['ADMIN_URL'] || undefined);
  const flag = values['token'] as string | undefined;
  const explicit = flag ?? (env['ADMIN_TOKEN'] || undefined);
  if (explicit !== undefined) {
    const from = flag !== undefined ? '--token' : 'ADMIN_TOKEN';
    if (acts) {
      io.stderr(
        explicit.startsWith('apt_')
          ? `acting with the personal token of ${from}, not your login\n`
          : `acting as system:dev with ${from}, not as a person (production refuses it except to create the first owner)\n`,
      );
    }
    return {
      baseUrl: explicitUrl ?? DEFAULT_ADMIN_URL,
      token: explicit,
      unauthorizedHint: `the token of ${from} was refused: in production ADMIN_TOKEN only creates the first owner; sign in with npm run admin -- login`,
    };
  }
  let stored: Credentials | undefined;
  let problem: string | undefined;
  try {
    stored = acts ? readCredentials(credentialsFile) : undefined;
  } catch (err) {
    problem = (err as Error).message;
  }
  const relogin = `npm run admin -- login${explicitUrl ? ` --admin-url ${explicitUrl}` : ''}`;
  if (stored && explicitUrl && !sameUrl(explicitUrl, stored.adminUrl)) {
    problem = `you are signed in to ${stored.adminUrl}, not ${explicitUrl}: ${relogin}`;
    stored = undefined;
  } else if (stored && Date.parse(stored.expiresAt) <= Date.now()) {
    problem = `your token expired at ${stored.expiresAt}: ${relogin}`;
    stored = undefined;
  }
  return {
    baseUrl: explicitUrl ?? stored?.adminUrl ?? DEFAULT_ADMIN_URL,
    token: stored?.token,
    noToken:
      problem ??
      `not signed in: ${relogin} (outside production ADMIN_TOKEN=dev-admin-token acts as system:dev)`,
    unauthorizedHint: `the token of ${stored?.email ?? 'your login'} was refused (revoked, or the person disabled): ${relogin}`,
  };
}
