export * from './events.js';
export * from './limits.js';
export * from './reconciliation.js';
export * from './views.js';
