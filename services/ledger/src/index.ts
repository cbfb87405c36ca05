export { type Ledger, main } from './main.js';
