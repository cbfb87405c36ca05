export { type Clock, createTestClock, systemClock, type TestClock } from './clock.js';
export { type BackgroundLoop, type BackgroundLoopOptions, type Next, startBackgroundLoop } from './loop.js';
