// A plan shape written at the start of the eighteenth round (issue #42), kept off the branches
// that did that round's work on the plan's analyses, and first run in the round's closing
// benchmark; a file of its own like plan-shapes-final.js's. Nothing was tuned for it.
import { pick } from '../dist/emulator/random.js';
import { namedRules, some } from './rule-shapes.js';

// The `streams` shape: a video-streaming service guarding playback rights and its accounts. A
// root `$and` of one or two groups (one in four a root `$or` of two or three groups). A group is a
// surface — one of 40 titles' manifests by `$startsWith`, the licence or login endpoint by `$eq`,
// a host that does not end in the service's own CDN suffixes (`$notEndsWith`), or (one in five)
// the whole service — then one to three tests: a country not in one to eight of 50 licensed
// (`$notIn`), a method other than GET (`$ne`), a device type in one or two of four, a TV-platform
// user agent (`$contains`), no `x-device-id` header or one equal to a known test device, a
// `profile` query parameter equal to one of 30, a `drm` custom parameter containing `l3`, an
// address in one or two of 20 IPv4 /18 and IPv6 /40 ranges, or a network outside one to six of
// 50 residential ASNs (`$notIn`).
const TITLES = Array.from({ length: 40 }, (_, i) => `/play/${(5000 + i * 113).toString(36)}/manifest`);
const ENDPOINTS = ['/api/licence', '/api/login', '/api/profiles/switch', '/api/devices/register'];
const CDN_SUFFIXES = ['.cdn.streams.example', '.edge.streams.example', '.streams.example'];
const LICENSED = ['US', 'CA', 'GB', 'IE', 'FR', 'DE', 'AT', 'CH', 'IT', 'ES', 'PT', 'NL', 'BE', 'LU', 'DK', 'SE', 'NO', 'FI', 'IS', 'PL', 'CZ', 'SK', 'HU', 'RO', 'BG', 'GR', 'HR', 'SI', 'EE', 'LV', 'LT', 'MX', 'BR', 'AR', 'CL', 'CO', 'PE', 'AU', 'NZ', 'JP', 'KR', 'TW', 'SG', 'MY', 'TH', 'PH', 'IN', 'ZA', 'IL', 'AE'];
const TV_PLATFORMS = ['SMART-TV', 'Tizen', 'webOS', 'AppleTV', 'AFT', 'Roku', 'CrKey', 'PlayStation'];
const PROFILES = Array.from({ length: 30 }, (_, i) => `p${(31 * (i + 7)).toString(36)}`);
const RESIDENTIAL = Array.from({ length: 50 }, (_, i) => String(7_000 + i * 389));
const RANGES = Array.from({ length: 20 }, (_, i) => (i % 4 === 3
  ? `2001:db8:${(0x100 + i * 29).toString(16)}::/40`
  : `${60 + i * 7}.${(i * 71) % 256}.${(i % 4) * 64}.0/18`));
const TESTS = [
  (r) => ({ conditionType: 'country', operator: '$notIn', value: some(r, LICENSED, 1, 8) }),
  () => ({ conditionType: 'httpMethod', operator: '$ne', value: 'GET' }),
  (r) => ({ conditionType: 'deviceType', operator: '$in', value: some(r, ['desktop', 'mobile', 'tablet', 'tv'], 1, 2) }),
  (r) => ({ conditionType: 'userAgent', operator: '$contains', value: pick(r, TV_PLATFORMS) }),
  () => ({ conditionType: 'header', fieldOption: 'x-device-id', operator: '$notExists' }),
  () => ({ conditionType: 'header', fieldOption: 'x-device-id', operator: '$eq', value: 'test-device-0000' }),
  (r) => ({ conditionType: 'queryParam', fieldOption: 'profile', operator: '$eq', value: pick(r, PROFILES) }),
  () => ({ conditionType: 'customParam', fieldOption: 'drm', operator: '$contains', value: 'l3' }),
  (r) => ({ conditionType: 'socketIps', operator: '$in', value: some(r, RANGES, 1, 2) }),
  (r) => ({ conditionType: 'socketIpASN', operator: '$notIn', value: some(r, RESIDENTIAL, 1, 6) }),
];

function streamGroup(random) {
  const roll = random();
  const surface = roll < 0.2 ? []
    : roll < 0.55 ? [{ conditionType: 'path', operator: '$startsWith', value: pick(random, TITLES) }]
      : roll < 0.8 ? [{ conditionType: 'path', operator: '$eq', value: pick(random, ENDPOINTS) }]
        : [{ conditionType: 'domain', operator: '$notEndsWith', value: pick(random, CDN_SUFFIXES) }];
  return { operator: '$and', children: [...surface, ...some(random, TESTS, 1, 3).map((test) => test(random))] };
}

export function streamRules(random, count) {
  return namedRules(random, count, 'Stream', 0.9, () => random() < 0.25
    ? { operator: '$or', children: Array.from({ length: 2 + Math.floor(random() * 2) }, () => streamGroup(random)) }
    : { operator: '$and', children: Array.from({ length: 1 + Math.floor(random() * 2) }, () => streamGroup(random)) });
}
