import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** The current TOTP code of `secret` (Base32), or the one `offsetSteps` 30-second steps away. */
export function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** A signed-in person of a running stack, as createTestPerson made them. */
export interface TestPerson {
  id: string;
  email: string;
  password: string;
  roles: string[];
  totpSecret: string;
  /** Unused recovery codes; `signIn` spends them. */
  recoveryCodes: string[];
  /** `name=value` of the session cookie, for a `cookie` header. */
  cookie: string;
  csrfToken: string;
  /** A personal token with all the person's roles (30 days). */
  token: string;
  tokenId: string;
  /** A new session (with the next unused recovery code): `{cookie, csrfToken}`. */
  signIn(): Promise<{ cookie: string; csrfToken: string }>;
}

async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown },
) {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const response = await fetch(url, {
    method,
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = { text };
  }
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return { json, headers: response.headers };
}

/**
 * Makes a person in a running stack (CONTRACT.md section 17) the way a person does it: invited with `roles`
 * (as `invitedBy`, a bearer token: ADMIN_TOKEN's system:dev by default, or an owner's personal token),
 * accepts with a password, enrols TOTP, confirms, signs in, and makes a personal token with all their roles.
 * With `mchNo`, a merchant's person: invited by an operator, the rest on the dashboard (`gatewayUrl`).
 * With `firstSignIn: 'recovery-code'`, that sign-in spends a recovery code instead of the next step's TOTP
 * code, so a test can sign in with the authenticator's next code at once (a code signs in once).
 */
export async function createTestPerson(opts: {
  adminUrl: string;
  roles: string[];
  invitedBy?: string;
  mchNo?: string;
  gatewayUrl?: string;
  email?: string;
  name?: string;
  password?: string;
  firstSignIn?: 'totp' | 'recovery-code';
}): Promise<TestPerson> {
  const email = opts.email ?? `p-${randomBytes(5).toString('hex')}@people.test`;
  const password = opts.password ?? `pw-${randomBytes(12).toString('hex')}`;
  const auth = { authorization: `Bearer ${opts.invitedBy ?? 'dev-admin-token'}` };
  const invitePath = opts.mchNo ? `/admin/merchants/${opts.mchNo}/users` : '/admin/users';
  const invited = await call(`${opts.adminUrl}${invitePath}`, {
    headers: auth,
    body: { email, name: opts.name ?? email.split('@')[0], roles: opts.roles },
  });
  const inviteToken = String(invited.json['inviteToken']);
  let base: string;
  let prefix: string;
  let mePrefix: string;
  if (opts.mchNo) {
    if (!opts.gatewayUrl) throw new Error('createTestPerson: a merchant person needs gatewayUrl');
    base = opts.gatewayUrl;
    prefix = '/dashboard/api';
    mePrefix = '/dashboard/api/me';
  } else {
    base = opts.adminUrl;
    prefix = '/console/api';
    mePrefix = '/admin/me';
  }
  const enrolled = await call(`${base}${prefix}/invitations/${inviteToken}`, { body: { password } });
  const totpSecret = String(enrolled.json['totpSecret']);
  const confirmed = await call(`${base}${prefix}/invitations/${inviteToken}/confirm`, {
    body: { code: totpCode(totpSecret) },
  });
  const recoveryCodes = [...(confirmed.json['recoveryCodes'] as string[])];

  const signInWith = async (code: string) => {
    const session = await call(`${base}${prefix}/session`, {
      body: { email, password, code, ...(opts.mchNo ? { mchNo: opts.mchNo } : {}) },
    });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';', 1)[0] ?? '';
    return { cookie, csrfToken: String(session.json['csrfToken']), json: session.json };
  };
  // The confirmation spent this step's code (a code signs in once): the next step's is accepted as drift.
  const first = await signInWith(
    opts.firstSignIn === 'recovery-code' ? (recoveryCodes.shift() ?? '') : totpCode(totpSecret, 1),
  );
  const user = first.json['user'] as { id: string; roles: string[] };
  const token = await call(`${base}${mePrefix}/tokens`, {
    headers: { cookie: first.cookie, 'x-csrf-token': first.csrfToken },
    body: { name: 'test helper', roles: user.roles, expiresInDays: 30 },
  });
  return {
    id: user.id,
    email,
    password,
    roles: user.roles,
    totpSecret,
    recoveryCodes,
    cookie: first.cookie,
    csrfToken: first.csrfToken,
    token: String(token.json['token']),
    tokenId: String(token.json['id']),
    async signIn() {
      const code = recoveryCodes.shift();
      if (!code) throw new Error('no recovery code left');
      const { cookie, csrfToken } = await signInWith(code);
      return { cookie, csrfToken };
    },
  };
}
