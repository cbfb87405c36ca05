import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { ACTOR_METADATA, APPROVAL_METADATA, isValidateOnly, originMetadata, originOf } from './actor.js';

describe('the actor in admin calls', () => {
  it('travels as metadata and reads back as it was sent', () => {
    const metadata = originMetadata({
      actor: { id: 'user:1', label: 'ana@example.com', roles: ['admin'] },
      approvalId: 'apr_1',
    });
    expect(originOf(metadata)).toEqual({
      actor: { id: 'user:1', label: 'ana@example.com', roles: ['admin'] },
      approvalId: 'apr_1',
      validateOnly: false,
    });
    expect(isValidateOnly(metadata)).toBe(false);
    expect(
      isValidateOnly(originMetadata({ actor: { id: 'a', label: 'a', roles: [] }, validateOnly: true })),
    ).toBe(true);
  });

  it('reads nothing from a call without it, or with a malformed one', () => {
    expect(originOf(new grpc.Metadata())).toBeUndefined();
    for (const bad of ['not json', '{"id":"x"}', '{"id":"","label":"a"}', '[1]', 'null']) {
      const metadata = new grpc.Metadata();
      metadata.set(ACTOR_METADATA, bad);
      metadata.set(APPROVAL_METADATA, 'apr_2');
      expect(originOf(metadata)).toBeUndefined();
    }
  });
});
