import * as grpc from '@grpc/grpc-js';

// Who asked for an operator's change travels with the admin call, in metadata rather than in each request
// message: the gateway resolves the person once (session or personal token) and every service records the
// same words for them (docs/architecture.md "Who acts").

/** Metadata key of the acting person: JSON `{"id","label","roles"}`. */
export const ACTOR_METADATA = 'x-agentpay-actor';
/** Metadata key of the approval a four-eyes change executes (its id), absent for a change made at once. */
export const APPROVAL_METADATA = 'x-agentpay-approval';
/** Metadata key asking a service to check a change in full and answer as if made, without saving it. */
export const VALIDATE_ONLY_METADATA = 'x-agentpay-validate-only';

/** The acting person as a service sees them. */
export interface CallActor {
  /** `user:<uuid>` for a person, `system:dev` for the development token. */
  id: string;
  /** What a service records: the person's email, or `system:dev`. */
  label: string;
  roles: string[];
}

/** Who is behind an admin call, and the approval it carries out when it needed four eyes. */
export interface CallOrigin {
  actor: CallActor;
  approvalId?: string | undefined;
  /** Check in full, answer as if done, save nothing. */
  validateOnly?: boolean | undefined;
}

const MAX_TEXT = 320;

/** Metadata carrying `origin` (added to `into` when given). */
export function originMetadata(origin: CallOrigin, into: grpc.Metadata = new grpc.Metadata()): grpc.Metadata {
  const { id, label, roles } = origin.actor;
  into.set(ACTOR_METADATA, JSON.stringify({ id, label, roles }));
  if (origin.approvalId) into.set(APPROVAL_METADATA, origin.approvalId);
  if (origin.validateOnly) into.set(VALIDATE_ONLY_METADATA, '1');
  return into;
}

const text = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;

/**
 * The origin an admin call carries, or undefined when it carries none or a malformed one (a service then
 * records what the request itself says, for callers older than the metadata).
 */
export function originOf(metadata: grpc.Metadata): CallOrigin | undefined {
  const raw = metadata.get(ACTOR_METADATA)[0];
  if (typeof raw !== 'string' || raw.length > 4_096) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { id, label, roles } = parsed as Record<string, unknown>;
  if (!text(id) || !text(label)) return undefined;
  const roleList = Array.isArray(roles) ? roles.filter(text).slice(0, 20) : [];
  const approval = metadata.get(APPROVAL_METADATA)[0];
  return {
    actor: { id, label, roles: roleList },
    approvalId: text(approval) ? approval : undefined,
    validateOnly: metadata.get(VALIDATE_ONLY_METADATA)[0] === '1',
  };
}

/** Whether the call asks for a check without saving (see VALIDATE_ONLY_METADATA). */
export function isValidateOnly(metadata: grpc.Metadata): boolean {
  return metadata.get(VALIDATE_ONLY_METADATA)[0] === '1';
}
