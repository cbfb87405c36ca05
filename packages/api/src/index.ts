export * from './events.js';
export * from './views.js';
