import type { FastifyReply } from '@agentpay/http';
import type { z } from 'zod';

/** The first problem of a value that fails its schema, as the admin API words it: `field.path: message`. */
export function schemaProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.map(String).join('.') || 'body'}: ${issue?.message ?? 'invalid'}`;
}

/** The admin API's 400 for a body that fails its schema, as a value (four-eyes operations answer with it). */
export function schemaRefusal(error: z.ZodError): { ok: false; refusal: { status: 400; body: unknown } } {
  return {
    ok: false,
    refusal: { status: 400, body: { error: 'bad_request', message: schemaProblem(error) } },
  };
}

/** Answers 400 naming the first problem of a body that fails its schema. */
export function badRequest(reply: FastifyReply, error: z.ZodError) {
  return reply.code(400).send({ error: 'bad_request', message: schemaProblem(error) });
}
