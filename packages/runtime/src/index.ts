export { type BackgroundLoop, type BackgroundLoopOptions, backgroundLoop, type Next } from './loop.js';
