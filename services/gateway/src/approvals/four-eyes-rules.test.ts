import { describe, expect, it } from 'vitest';
import {
  merchantChangeNeedsFourEyes,
  resolutionNeedsFourEyes,
  routeChangeNeedsFourEyes,
} from './four-eyes-rules.js';

describe('which requests need four eyes', () => {
  it('a route change, unless it names only name, weight, priority or enabled (incidents)', () => {
    expect(routeChangeNeedsFourEyes({ body: { weight: 0 } })).toBe(false);
    expect(routeChangeNeedsFourEyes({ body: { enabled: false, priority: 1, name: 'x' } })).toBe(false);
    for (const field of [
      'adapter',
      'config',
      'credentialsRef',
      'methods',
      'payeeTypes',
      'merchantScope',
      'codeMap',
    ])
      expect(routeChangeNeedsFourEyes({ body: { [field]: 'x' } }), field).toBe(true);
    expect(routeChangeNeedsFourEyes({ body: { weight: 0, config: {} } })).toBe(true);
    // Not an object: the route refuses it with 400, at once.
    expect(routeChangeNeedsFourEyes({ body: [] })).toBe(false);
  });

  it('a merchant change that adds a key; a resolution by credit or return', () => {
    expect(merchantChangeNeedsFourEyes({ body: { addPublicKey: 'PEM', name: 'x' } })).toBe(true);
    expect(merchantChangeNeedsFourEyes({ body: { revokeKeyIds: [], status: 'disabled' } })).toBe(false);
    expect(resolutionNeedsFourEyes({ body: { action: 'credit' } })).toBe(true);
    expect(resolutionNeedsFourEyes({ body: { action: 'return' } })).toBe(true);
    expect(resolutionNeedsFourEyes({ body: { action: 'apply' } })).toBe(false);
  });
});
