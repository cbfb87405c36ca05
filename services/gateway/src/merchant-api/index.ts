// The edge: the merchant API (signature checks, admission: nonces and rate limits, the signed routes), its
// OpenAPI document and docs page, and the cashier (the payer's hosted page) on the same port.

export { admitRequest } from './admission.repository.js';
export { createCashierIssuer, registerCashierRoutes } from './cashier/cashier.routes.js';
export { cashierLinks } from './cashier/cashier-link.repository.js';
export { cashierSecret, createCashierTokens } from './cashier/cashier-token.js';
export { buildMerchantApi } from './merchant-api.js';
export { merchantRoutes } from './merchant-api.routes.js';
