import type { FastifyRequest } from '@agentpay/http';
import { type MerchantRole, OPERATOR_ROLES, type OperatorRole } from './actor.js';

// Shorthands the permission tables (*.permissions.ts) are written with: who may call, and what an audit
// entry names as its target.

export const ALL = OPERATOR_ROLES;
export const only = (...roles: OperatorRole[]): readonly OperatorRole[] => roles;
export const team = (...roles: MerchantRole[]): readonly MerchantRole[] => roles;

const param = (request: FastifyRequest, name: string) =>
  (request.params as Record<string, string> | undefined)?.[name] ?? '';
const bodyField = (request: FastifyRequest, name: string) => {
  const body = request.body as Record<string, unknown> | undefined;
  return typeof body?.[name] === 'string' ? (body[name] as string) : '';
};
export const merchant = (r: FastifyRequest) => `merchant:${param(r, 'mchNo') || bodyField(r, 'mchNo')}`;
export const route = (r: FastifyRequest) => `route:${param(r, 'id') || bodyField(r, 'id')}`;
export const of =
  (kind: string, name = 'id') =>
  (r: FastifyRequest) =>
    `${kind}:${param(r, name)}`;
