import { describe, expect, it } from 'vitest';
import { formatAddress, parseAddress } from '../../src/servers/address.ts';
import { UserError } from '../../src/errors.ts';

describe('parseAddress', () => {
  it.each([
    ['play.example.net', { host: 'play.example.net', port: 25565 }],
    ['Play.Example.NET.', { host: 'play.example.net', port: 25565 }],
    ['127.0.0.1:25566', { host: '127.0.0.1', port: 25566 }],
    ['[::1]:25570', { host: '::1', port: 25570 }],
    ['::1', { host: '::1', port: 25565 }],
  ])('GIVEN "%s" THEN it is %o', (text, address) => {
    expect(parseAddress(text)).toEqual(address);
  });

  it.each(['', 'exa_mple.net', 'host:0', 'host:65536', 'host:12a', 'a b', 'http://x.net', '\u001b[31mred'])('GIVEN "%s" THEN it is refused in words', (text) => {
    expect(() => parseAddress(text)).toThrow(UserError);
  });

  it('GIVEN an IPv6 address THEN it is shown in brackets', () => {
    expect(formatAddress({ host: '::1', port: 25565 })).toBe('[::1]:25565');
    expect(formatAddress({ host: 'a.net', port: 1 })).toBe('a.net:1');
  });
});
