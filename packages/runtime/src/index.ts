export { type Clock, createTestClock, systemClock, type TestClock } from './clock.js';
export { type BackgroundLoop, type BackgroundLoopOptions, backgroundLoop, type Next } from './loop.js';
