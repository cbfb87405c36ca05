import { describe, expect, it } from 'vitest';
import { forbiddenAddressReason } from './address-policy.js';

describe('forbiddenAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private (RFC 1918)'],
    ['172.16.0.1', 'private (RFC 1918)'],
    ['172.31.255.255', 'private (RFC 1918)'],
    ['192.168.1.1', 'private (RFC 1918)'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.127.255.255', 'shared address space (CGNAT)'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.1.1', 'link-local'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique local (fc00::/7)'],
    ['fd12:3456::1', 'unique local (fc00::/7)'],
    ['fe80::1', 'link-local (fe80::/10)'],
    ['fe80::1%eth0', 'link-local (fe80::/10)'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata)'],
    ['::ffff:10.1.2.3', 'private (RFC 1918)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (cloud metadata)'],
    ['2002:7f00:1::', 'loopback (6to4)'],
  ])('refuses %s as %s', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2001:4860:4860::8888',
  ])('lets public %s through', (address) => {
    expect(forbiddenAddressReason(address)).toBeUndefined();
  });

  it('refuses anything that is not an IP address', () => {
    expect(forbiddenAddressReason('localhost')).toBe('not an IP address');
  });
});
