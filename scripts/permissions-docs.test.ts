import { describe, expect, it } from 'vitest';
import { ADMIN_PERMISSIONS } from '../services/gateway/src/permissions.js';
import { renderPermissions, renderReadme } from './permissions-docs.js';

describe('services/gateway/README.md "Who may call what"', () => {
  it('is what `npm run docs:permissions` writes from the permission table', () => {
    const { current, expected } = renderReadme();
    // Line by line, so a failure shows the rows that differ.
    expect(current.split('\n'), 'services/gateway/README.md is stale: run npm run docs:permissions').toEqual(
      expected.split('\n'),
    );
  });

  it('shows every route of the table, once', () => {
    const text = renderPermissions();
    for (const p of ADMIN_PERMISSIONS) {
      expect(text.split(`\`${p.method} ${p.url}\``).length - 1, `${p.method} ${p.url}`).toBe(1);
    }
  });
});
