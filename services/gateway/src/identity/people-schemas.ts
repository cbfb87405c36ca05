import { z } from 'zod';
import { schemaProblem } from '../shared/schema-problem.js';
import type { Actor } from './actor.js';
import { PeopleError } from './people-errors.js';
import { TOKEN_MAX_DAYS } from './people-tokens.service.js';

// The people routes' request bodies and queries (people.routes.ts, identity.routes.ts), and who the caller is.

export const email = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'an email address');
export const invite = z
  .object({
    email,
    name: z.string().trim().min(1).max(100),
    roles: z.array(z.string().max(32)).min(1).max(10),
  })
  .strict();
export const password = z.object({ password: z.string().max(200) }).strict();
export const code = z.object({ code: z.string().min(1).max(32) }).strict();
export const signIn = z
  .object({
    email: z.string().max(320),
    password: z.string().max(200),
    code: z.string().max(32),
    mchNo: z.string().min(1).max(32).optional(),
  })
  .strict();
export const newToken = z
  .object({
    name: z.string().trim().min(1).max(100),
    roles: z.array(z.string().max(32)).min(1).max(10),
    expiresInDays: z.number().int().min(1).max(TOKEN_MAX_DAYS),
  })
  .strict();
export const updateUser = z
  .object({
    roles: z.array(z.string().max(32)).min(1).max(10).optional(),
    status: z.enum(['enabled', 'disabled']).optional(),
    unlock: z.literal(true).optional(),
  })
  .strict();
export const usersQuery = z.object({
  search: z.string().trim().max(100).optional(),
  cursor: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export const instant = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 time')
  .transform((s) => new Date(s));
export const auditQuery = z.object({
  actor: z.string().max(320).optional(),
  action: z.string().max(100).optional(),
  target: z.string().max(300).optional(),
  mchNo: z.string().max(32).optional(),
  from: instant.optional(),
  to: instant.optional(),
  cursor: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new PeopleError('invalid', schemaProblem(result.error));
}

export const userIdOf = (actor: Actor | undefined) =>
  actor?.kind === 'person' ? actor.id.slice('user:'.length) : undefined;

export function personOnly(actor: Actor | undefined): string {
  const id = userIdOf(actor);
  if (!id) throw new PeopleError('invalid', `${actor?.id ?? 'nobody'} is not a person: sign in as one`);
  return id;
}
