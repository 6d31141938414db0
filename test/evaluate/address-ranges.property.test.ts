// The evaluator checks an IPv4 address against IPv4 ranges by its own arithmetic
// (src/evaluate/leaf.ts, AddressRanges) instead of asking Node's BlockList, also beside IPv6
// ranges that hold no IPv4-mapped address: on random addresses, including ones isIP refuses
// (leading zeros, parts over 255, IPv6 forms), and random ranges (IPv6 ones in and around
// ::ffff:0:0/96 among them) it answers as a BlockList holding the same ranges does.
import { BlockList, isIP, SocketAddress } from 'node:net';
import fc from 'fast-check';
import { AddressRanges } from '../../src/evaluate/leaf.js';

const part = fc.oneof(fc.integer({ min: 0, max: 255 }).map(String), fc.constantFrom('0', '00', '010', '256', '999', '1000', ''));
const ipv4Text = fc.tuple(part, part, part, part).map((parts) => parts.join('.'));
const address = fc.oneof(ipv4Text, fc.constantFrom('10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', 'not an address', '1.2.3', '1.2.3.4.5', ' 1.2.3.4'));
const range = fc.oneof(
  fc.tuple(ipv4Text, fc.integer({ min: 0, max: 33 })).map(([network, prefix]) => `${network}/${prefix}`),
  ipv4Text,
  fc.constantFrom('10.0.0.0/8', '0.0.0.0/0', '2001:db8::/32', '::ffff:0:0/96', '10.0.0.0/x'),
  fc.constantFrom('::/0', '::/96', '::ffff:10.0.0.0/104', '::ffff:10.0.0.1', '::fffe:0:0/96', '::ffff:0:0/95', '::1:0:0:0/80', '2a00::/8', 'fe80::1%eth0', '::ffff:a00:0%eth0/104', '::ffff:0:0/97'),
);

function blockListContains(ranges: readonly string[], text: string): boolean {
  const list = new BlockList();
  for (const written of ranges) {
    const [network = '', prefix] = written.split('/');
    const version = isIP(network);
    if (version === 0) continue;
    const type = version === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(network, type);
    else if (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)) list.addSubnet(network, Number(prefix), type);
  }
  const version = isIP(text);
  return version !== 0 && list.check(new SocketAddress({ address: text, family: version === 4 ? 'ipv4' : 'ipv6' }));
}

test('an address lies in ranges exactly when a BlockList of the ranges says so', () => {
  let mixedAskedIpv4 = 0;
  fc.assert(fc.property(fc.array(range, { maxLength: 4 }), address, (ranges, text) => {
    const families = new Set(ranges.map((written) => isIP(written.split('/')[0] ?? '')));
    if (families.has(4) && families.has(6) && isIP(text) === 4) mixedAskedIpv4 += 1;
    expect(new AddressRanges(ranges).contain(text)).toBe(blockListContains(ranges, text));
  }), { numRuns: 20_000 });
  // IPv4 and IPv6 ranges together, asked about an IPv4 address: the case the arithmetic now takes on.
  expect(mixedAskedIpv4).toBeGreaterThan(200);
});
