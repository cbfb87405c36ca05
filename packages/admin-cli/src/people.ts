import { createWriteStream } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Context } from './commands.js';
import { type Credentials, readCredentials, removeCredentials, writeCredentials } from './credentials.js';
import { type ApiTarget, bearer, CliError, callApi, Exit, refused, send, streamApi, usage } from './http.js';

// Who acts: login (a personal token stored for the CLI), logout, whoami; and the people commands over the
// admin API (CONTRACT.md section 17): users, the audit log.

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Personal tokens live at most this long (the gateway's TOKEN_MAX_DAYS). */
export const TOKEN_MAX_DAYS = 90;
export const TOKEN_DEFAULT_DAYS = 30;

function option(ctx: Context, name: string): string | undefined {
  const value = ctx.values[name];
  return typeof value === 'string' ? value : undefined;
}

function noPositionals(ctx: Context) {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
}

/** A value from its option, else asked on the terminal; without a terminal the option is required. */
async function ask(ctx: Context, value: string | undefined, question: string, hidden: boolean, how: string) {
  if (value !== undefined && value !== '') return value;
  if (!ctx.prompt) throw usage(`${how} (no terminal to ask on)`);
  const answer = (await ctx.prompt(question, hidden)).trim();
  if (answer === '') throw usage(`${how}`);
  return answer;
}

async function password(ctx: Context): Promise<string> {
  if (ctx.values['password-stdin']) {
    // The first line of stdin, so that `printf '%s\n' "$PW" | npm run admin -- login ...` works.
    const first = (await ctx.readStdin()).split(/\r?\n/, 1)[0] ?? '';
    if (first === '') throw usage('--password-stdin: stdin was empty');
    return first;
  }
  const fromEnv = ctx.env['ADMIN_PASSWORD'];
  if (fromEnv) return fromEnv;
  return ask(
    ctx,
    undefined,
    'Password: ',
    true,
    'the password is required: --password-stdin or ADMIN_PASSWORD',
  );
}

function cookieOf(headers: Headers): string {
  const setCookie = headers.getSetCookie?.() ?? [headers.get('set-cookie') ?? ''];
  for (const line of setCookie) {
    const pair = line.split(';', 1)[0]?.trim() ?? '';
    if (pair.includes('=') && !pair.endsWith('=')) return pair;
  }
  throw new CliError('the admin API signed in without a session cookie', Exit.FAILED);
}

/**
 * Signs in as a person (email, password, TOTP code) through the console's sign-in call, makes a personal
 * token with all the person's roles for this CLI, ends the session, and stores the token (mode 0600).
 */
export async function login(ctx: Context): Promise<void> {
  noPositionals(ctx);
  const days = Number(option(ctx, 'expires-in-days') ?? TOKEN_DEFAULT_DAYS);
  if (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_DAYS) {
    throw usage(`--expires-in-days must be a whole number from 1 to ${TOKEN_MAX_DAYS}`);
  }
  const target: ApiTarget = { ...ctx.admin, token: undefined };
  const email = await ask(ctx, option(ctx, 'email'), 'Email: ', false, '--email is required');
  const secret = await password(ctx);
  const code = await ask(ctx, option(ctx, 'code'), 'Authenticator code: ', false, '--code is required');

  const session = await send(target, 'POST', '/console/api/session', {
    body: { email, password: secret, code },
  });
  if (session.status === 401) {
    throw new CliError(
      'sign-in refused: wrong email, password or code, or the account is locked (a code signs in once: wait for the next one)',
      Exit.FAILED,
    );
  }
  if (session.status !== 200) throw refused(target, 'POST', '/console/api/session', session);
  const signedIn = session.body as { csrfToken?: unknown; user?: { email?: unknown; roles?: unknown } };
  const roles = signedIn.user?.roles;
  if (typeof signedIn.csrfToken !== 'string' || !Array.isArray(roles)) {
    throw new CliError('the admin API signed in without a CSRF token or roles', Exit.FAILED);
  }
  const sessionHeaders = { cookie: cookieOf(session.headers), 'x-csrf-token': signedIn.csrfToken };

  let created: { id: string; token: string; expiresAt: string; roles: string[] };
  try {
    const name = `cli@${hostname()}`.slice(0, 100);
    const made = await send(target, 'POST', '/admin/me/tokens', {
      body: { name, roles, expiresInDays: days },
      headers: sessionHeaders,
    });
    if (made.status !== 201) throw refused(target, 'POST', '/admin/me/tokens', made);
    created = made.body as typeof created;
  } finally {
    // The CLI keeps the token, never the session: end it whatever happened.
    await send(target, 'DELETE', '/console/api/session', { headers: sessionHeaders }).catch(() => undefined);
  }

  const previous = safeRead(ctx);
  const credentials: Credentials = {
    adminUrl: target.baseUrl.replace(/\/+$/, ''),
    token: created.token,
    tokenId: created.id,
    email: typeof signedIn.user?.email === 'string' ? signedIn.user.email : email,
    expiresAt: created.expiresAt,
  };
  try {
    writeCredentials(ctx.credentialsFile, credentials);
  } catch (err) {
    // Not stored: a token nobody holds should not stay valid.
    await revoke({ ...target, token: created.token }, created.id).catch(() => undefined);
    throw err;
  }
  // The token this file held before is replaced: revoke it where it was made, if that still answers.
  if (previous && previous.tokenId !== created.id) {
    await revoke({ ...target, baseUrl: previous.adminUrl, token: previous.token }, previous.tokenId).catch(
      () => undefined,
    );
  }
  ctx.err(
    `signed in as ${credentials.email}; token ${created.id} (${created.roles.join(', ')}) valid until ${created.expiresAt}, stored in ${ctx.credentialsFile}`,
  );
  ctx.out(
    json({
      email: credentials.email,
      adminUrl: credentials.adminUrl,
      tokenId: created.id,
      roles: created.roles,
      expiresAt: created.expiresAt,
      credentials: ctx.credentialsFile,
    }),
  );
}

function safeRead(ctx: Context): Credentials | undefined {
  try {
    return readCredentials(ctx.credentialsFile);
  } catch {
    return undefined;
  }
}

/** DELETE /admin/me/tokens/:id; true when revoked now, false when the token was no longer valid (401). */
async function revoke(target: ApiTarget, tokenId: string): Promise<boolean> {
  const path = `/admin/me/tokens/${encodeURIComponent(tokenId)}`;
  const sent = await send(target, 'DELETE', path, { headers: bearer(target) });
  if (sent.status === 204 || sent.status === 200) return true;
  if (sent.status === 401 || sent.status === 404) return false;
  throw refused(target, 'DELETE', path, sent);
}

/** Revokes the stored token and deletes the file. */
export async function logout(ctx: Context): Promise<void> {
  noPositionals(ctx);
  const stored = readCredentials(ctx.credentialsFile);
  if (!stored) {
    ctx.err(`not signed in (no ${ctx.credentialsFile})`);
    return;
  }
  const target: ApiTarget = { ...ctx.admin, baseUrl: stored.adminUrl, token: stored.token };
  let revoked: boolean;
  try {
    revoked = await revoke(target, stored.tokenId);
  } catch (err) {
    if (err instanceof CliError && err.exitCode === Exit.UNREACHABLE) {
      throw new CliError(
        `${err.message}\nthe token is still valid and ${ctx.credentialsFile} is kept: run logout again, or revoke token ${stored.tokenId} in the console`,
        Exit.UNREACHABLE,
      );
    }
    throw err;
  }
  removeCredentials(ctx.credentialsFile);
  ctx.err(
    revoked
      ? `signed out: token ${stored.tokenId} revoked, ${ctx.credentialsFile} deleted`
      : `signed out: token ${stored.tokenId} was no longer valid, ${ctx.credentialsFile} deleted`,
  );
}

export async function whoami(ctx: Context): Promise<void> {
  noPositionals(ctx);
  ctx.out(json(await callApi(ctx.admin, 'GET', '/admin/me')));
}

const roleList = (ctx: Context): string[] | undefined => {
  const value = ctx.values['role'];
  return Array.isArray(value) && value.length > 0 ? value : undefined;
};

export async function usersInvite(ctx: Context): Promise<void> {
  noPositionals(ctx);
  const email = option(ctx, 'email');
  const roles = roleList(ctx);
  if (!email) throw usage('--email is required');
  if (!roles)
    throw usage('give at least one --role (owner, admin, approver, reconciliation, support, auditor)');
  const name = option(ctx, 'name') ?? email.split('@')[0] ?? email;
  const invited = (await callApi(ctx.admin, 'POST', '/admin/users', { email, name, roles })) as {
    inviteUrl?: string;
  };
  ctx.out(json(invited));
  if (invited.inviteUrl) {
    ctx.err(`send ${email} this link (valid 72 h, once): ${invited.inviteUrl}`);
  }
}

export async function usersList(ctx: Context): Promise<void> {
  noPositionals(ctx);
  ctx.out(json(await callApi(ctx.admin, 'GET', '/admin/users')));
}

/** A user's id from the argument: the id itself, or an email looked up in the list. */
async function userId(ctx: Context): Promise<string> {
  const given = ctx.positionals[0];
  if (!given) throw usage('the user (id or email) is required');
  if (ctx.positionals.length > 1) throw usage(`unexpected argument "${ctx.positionals[1]}"`);
  if (!given.includes('@')) return given;
  const { users } = (await callApi(ctx.admin, 'GET', '/admin/users')) as {
    users?: { id: string; email: string }[];
  };
  const found = users?.find((u) => u.email.toLowerCase() === given.toLowerCase());
  if (!found) throw new CliError(`no operator with the email ${given}`, Exit.FAILED);
  return found.id;
}

function userUpdate(body: (ctx: Context) => Record<string, unknown>) {
  return async (ctx: Context): Promise<void> => {
    const payload = body(ctx);
    const id = await userId(ctx);
    ctx.out(json(await callApi(ctx.admin, 'PATCH', `/admin/users/${encodeURIComponent(id)}`, payload)));
  };
}

export const usersRoles = userUpdate((ctx) => {
  const roles = roleList(ctx);
  if (!roles) throw usage('give the new roles as --role <role> (repeat it); they replace the old ones');
  return { roles };
});
export const usersDisable = userUpdate(() => ({ status: 'disabled' }));
export const usersEnable = userUpdate(() => ({ status: 'enabled' }));
export const usersUnlock = userUpdate(() => ({ unlock: true }));

const INSTANT = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

function auditQuery(ctx: Context, names: string[]): string {
  const query = new URLSearchParams();
  for (const name of names) {
    const value = option(ctx, name);
    if (value === undefined) continue;
    if ((name === 'from' || name === 'to') && (!INSTANT.test(value) || Number.isNaN(Date.parse(value)))) {
      throw usage(`--${name} must be an ISO 8601 time, e.g. 2026-11-01T00:00:00Z; got "${value}"`);
    }
    query.set(name, value);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export async function auditList(ctx: Context): Promise<void> {
  noPositionals(ctx);
  const query = auditQuery(ctx, ['actor', 'action', 'target', 'mchNo', 'from', 'to', 'cursor', 'limit']);
  ctx.out(json(await callApi(ctx.admin, 'GET', `/admin/audit${query}`)));
}

/** Proves the hash chain; exit 1 when it is broken, so a cron job can alert. */
export async function auditVerify(ctx: Context): Promise<void> {
  noPositionals(ctx);
  const report = (await callApi(ctx.admin, 'GET', '/admin/audit/verify')) as { ok?: unknown };
  ctx.out(json(report));
  if (report?.ok !== true) throw new CliError('the audit log chain is broken (see firstBroken)', Exit.FAILED);
}

/** The entries as CSV, streamed to --out or stdout. */
export async function auditExport(ctx: Context): Promise<void> {
  noPositionals(ctx);
  const query = auditQuery(ctx, ['from', 'to']);
  const out = option(ctx, 'out');
  if (out === undefined) {
    const decoder = new TextDecoder();
    await streamApi(ctx.admin, `/admin/audit/export${query}`, (chunk) => {
      ctx.write(decoder.decode(chunk, { stream: true }));
    });
    return;
  }
  const file = createWriteStream(out, { flags: 'wx', mode: 0o600 });
  const opened = new Promise<void>((ok, fail) => {
    file.once('open', () => ok());
    file.once('error', fail);
  });
  try {
    await opened;
  } catch (err) {
    throw new CliError(`cannot write ${out}: ${(err as Error).message}`, Exit.FAILED);
  }
  try {
    await streamApi(ctx.admin, `/admin/audit/export${query}`, (chunk) =>
      file.write(chunk) ? undefined : new Promise<void>((ok) => file.once('drain', () => ok())),
    );
  } finally {
    await new Promise<void>((ok) => file.end(() => ok()));
  }
  ctx.err(`audit log exported to ${resolve(out)}`);
}
