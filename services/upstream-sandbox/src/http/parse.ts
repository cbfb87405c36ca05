import type { z } from 'zod';
import { ChannelError } from '../errors.js';

/** Parses a body or query with `schema`, or throws a 400 naming the first bad field. */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || '(body)';
  throw new ChannelError('invalid_request', `${field}: ${issue?.message ?? 'invalid'}`);
}
