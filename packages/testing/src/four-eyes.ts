import { createTestPerson, type TestPerson } from './people.js';

// Four eyes for tests, the bench and the fault run (services/gateway/README.md "Four eyes"): an admin request
// that moves money answers 202 with a pending approval and does nothing until a second person approves. One
// helper makes such a request as one person (ADMIN_TOKEN's system:dev by default) and approves it as another
// (a person holding `approver`, made once per stack), and answers what the request would have answered
// without four eyes, so callers keep their assertions.

/** What an admin request answered in the end: its own refusal, or its approval's execution. */
export interface AdminAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  /** The approval it went through, when it needed four eyes. */
  approvalId?: string;
}

const approvers = new Map<string, Promise<TestPerson>>();

/** The stack's second person: one with the `approver` role, made on first use per admin URL. */
export function approverFor(adminUrl: string, invitedBy?: string): Promise<TestPerson> {
  let approver = approvers.get(adminUrl);
  if (!approver) {
    approver = createTestPerson({ adminUrl, roles: ['approver'], ...(invitedBy && { invitedBy }) });
    // A failed attempt is not kept: the next call tries again (the stack may not have been ready).
    approver.catch(() => approvers.delete(adminUrl));
    approvers.set(adminUrl, approver);
  }
  return approver;
}

async function send(
  url: string,
  method: string,
  token: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: Record<string, unknown>;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = { text };
  }
  return { status: response.status, body: json };
}

/**
 * When `answer` is a 202 with a pending approval, approves it as `approverToken` (default: the stack's
 * approver, see approverFor) and answers the execution's status and body, as the route answers without four
 * eyes; any other answer (a refusal at once, a route without four eyes) as it is.
 */
export async function settleApproval<T = Record<string, unknown>>(
  adminUrl: string,
  answer: { status: number; body: unknown },
  approverToken?: string,
  /** Who invites the stack's approver when it is made now: the stack's ADMIN_TOKEN if it is not the default. */
  invitedBy?: string,
): Promise<AdminAnswer<T>> {
  const approval = (answer.body as { approval?: { id?: string } } | undefined)?.approval;
  if (answer.status !== 202 || !approval?.id) return answer as AdminAnswer<T>;
  const token = approverToken ?? (await approverFor(adminUrl, invitedBy)).token;
  const decided = await send(`${adminUrl}/admin/approvals/${approval.id}/approve`, 'POST', token, undefined);
  if (decided.status !== 200)
    throw new Error(`approving ${approval.id} failed: ${decided.status} ${JSON.stringify(decided.body)}`);
  const after = decided.body['approval'] as { state: string; result?: { status: number; body: T } };
  if (!after.result)
    throw new Error(
      `approval ${approval.id} is ${after.state} with no result yet (a service was unreachable)`,
    );
  return { ...after.result, approvalId: approval.id };
}

/**
 * Sends an admin request as `token` (default ADMIN_TOKEN's dev-admin-token) and settles its approval when it
 * needs one (settleApproval): answers what the request answers without four eyes.
 */
export async function adminRequest<T = Record<string, unknown>>(opts: {
  adminUrl: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  token?: string;
  approverToken?: string;
}): Promise<AdminAnswer<T>> {
  const asked = await send(
    `${opts.adminUrl}${opts.path}`,
    opts.method,
    opts.token ?? 'dev-admin-token',
    opts.body,
  );
  return settleApproval<T>(opts.adminUrl, asked, opts.approverToken, opts.token);
}
