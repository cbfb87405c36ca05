import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, Exit } from './http.js';

// The signed-in person's personal token, as `login` stores it: one file, readable by its owner only.

export interface Credentials {
  adminUrl: string;
  /** The personal token (`apt_…`): it acts as the person, with the roles it was made with. */
  token: string;
  tokenId: string;
  email: string;
  /** ISO 8601. */
  expiresAt: string;
}

const text = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The file as this CLI writes it, or undefined (the CLI has no dependencies: checked by hand). */
export function parseCredentials(value: unknown): Credentials | undefined {
  const v = value as Partial<Record<keyof Credentials, unknown>> | null;
  if (typeof v !== 'object' || v === null) return undefined;
  if (!text(v.adminUrl) || !/^https?:\/\//.test(v.adminUrl)) return undefined;
  if (!text(v.token) || !v.token.startsWith('apt_') || !text(v.tokenId) || !text(v.email)) return undefined;
  if (!text(v.expiresAt) || Number.isNaN(Date.parse(v.expiresAt))) return undefined;
  return { adminUrl: v.adminUrl, token: v.token, tokenId: v.tokenId, email: v.email, expiresAt: v.expiresAt };
}

/** `$XDG_CONFIG_HOME/agentpay/credentials.json`, else `~/.config/agentpay/credentials.json`. */
export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_CONFIG_HOME'];
  // The XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const base = xdg?.startsWith('/') ? xdg : join(env['HOME'] || homedir(), '.config');
  return join(base, 'agentpay', 'credentials.json');
}

/** The stored credentials, or undefined when nobody signed in; a damaged file is an error that says so. */
export function readCredentials(path: string): Credentials | undefined {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`, Exit.FAILED);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    parsed = undefined;
  }
  const credentials = parseCredentials(parsed);
  if (!credentials) {
    throw new CliError(
      `${path} is not a credentials file this CLI wrote: delete it and run npm run admin -- login`,
      Exit.FAILED,
    );
  }
  return credentials;
}

/**
 * Writes the file with mode 0600 in a directory of mode 0700: through a new file renamed over the old one, so
 * that the token is never in a file anyone else could read, not even for a moment.
 */
export function writeCredentials(path: string, credentials: Credentials): void {
  const dir = dirname(path);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot write ${path}: ${(err as Error).message}`, Exit.FAILED);
  }
}

export function removeCredentials(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch (err) {
    throw new CliError(`cannot delete ${path}: ${(err as Error).message}`, Exit.FAILED);
  }
}

/** Two admin URLs name the same API when they differ at most by trailing slashes. */
export const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
