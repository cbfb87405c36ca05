import { describe, expect, it } from 'vitest';
import { isTraceparent, traceIdOf, traceparentOr } from './trace.js';

describe('traceIdOf', () => {
  it("takes a valid traceparent's trace id and makes a new one otherwise", () => {
    expect(traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    for (const bad of [undefined, '', 'garbage', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`]) {
      expect(traceIdOf(bad)).toMatch(/^[0-9a-f]{32}$/);
      expect(traceIdOf(bad)).not.toBe('0'.repeat(32));
    }
  });
});

describe('traceparentOr', () => {
  it('keeps a well-formed traceparent and starts a new root trace otherwise', () => {
    const good = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(traceparentOr(good)).toBe(good);
    const made = traceparentOr('00-xyz');
    expect(isTraceparent(made)).toBe(true);
    expect(made).not.toBe(traceparentOr('00-xyz'));
  });
});
