import type { FastifyReply } from '@agentpay/http';
import { isAppError } from '@agentpay/wire';
import type { z } from 'zod';
import { schemaProblem } from '../shared/schema-problem.js';

// How the orders routes of both ports answer a refusal: the services' codes mapped once, to the admin API's
// `{error, message}` with an HTTP status. Anything else is the port's own error handler's (a 500).

export function badQuery(reply: FastifyReply, error: z.ZodError) {
  return reply.code(400).send({ error: 'bad_request', message: schemaProblem(error) });
}

export function notFound(reply: FastifyReply) {
  return reply.code(404).send({ error: 'not_found', message: 'no such order or transfer' });
}

/** Answers a services' refusal; rethrows what is not one. */
export function serviceRefusal(reply: FastifyReply, err: unknown) {
  if (!isAppError(err)) throw err;
  switch (err.codeName) {
    case 'ORDER_NOT_FOUND':
    case 'TRANSFER_NOT_FOUND':
      return notFound(reply);
    case 'INVALID_PARAMETER':
      return reply.code(400).send({ error: 'bad_request', message: err.detail ?? err.message });
    case 'SERVICE_UNAVAILABLE':
    case 'UPSTREAM_UNAVAILABLE':
      return reply.code(503).send({ error: 'unavailable', message: 'a service did not answer; try again' });
    default:
      throw err;
  }
}
