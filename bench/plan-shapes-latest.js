// A plan shape written after the sixteenth round's work on the plan's analyses (issue #42), in a
// file of its own like plan-shapes-late.js's: run once, after the work, and reported as it came
// out. Nothing was tuned for it.
import { pick } from '../dist/emulator/random.js';
import { namedRules, some } from './rule-shapes.js';

// The `locales` shape: a multi-country shop's storefront rules, written at the end of the
// sixteenth round (after its work on the `networks` shape) and first run in the benchmark then. A
// root `$and` of one group (two in five a root `$or` of two groups), a group being a storefront
// (one of 24 locale path prefixes by `$startsWith`, one of 12 country hosts by `$endsWith`, or, one
// in five, the whole shop), then one to three tests of who shops there: a country outside two to
// six of 40, no accept-language header, an accept-language containing a language tag of 12, a
// currency query parameter in one to three of 10, a tablet or phone, a user agent that does not
// end like a common browser's, a geo override header, or an address outside one or two of 16
// IPv4 /16 ranges.
const LOCALES = ['en-us', 'en-gb', 'de-de', 'de-at', 'de-ch', 'fr-fr', 'fr-be', 'fr-ch', 'it-it', 'es-es', 'es-mx', 'pt-pt', 'pt-br', 'nl-nl', 'nl-be', 'sv-se', 'da-dk', 'fi-fi', 'pl-pl', 'cs-cz', 'ja-jp', 'ko-kr', 'zh-cn', 'en-au'];
const LOCALE_PREFIXES = LOCALES.map((locale) => `/${locale}/`);
const COUNTRY_HOSTS = ['de', 'at', 'ch', 'fr', 'be', 'it', 'es', 'nl', 'se', 'pl', 'jp', 'com.au'].map((tld) => `.shop.example.${tld}`);
const SHOP_COUNTRIES = ['US', 'GB', 'DE', 'AT', 'CH', 'FR', 'BE', 'IT', 'ES', 'MX', 'PT', 'BR', 'NL', 'SE', 'DK', 'FI', 'NO', 'PL', 'CZ', 'SK', 'HU', 'RO', 'GR', 'IE', 'JP', 'KR', 'CN', 'TW', 'HK', 'SG', 'AU', 'NZ', 'CA', 'AR', 'CL', 'CO', 'ZA', 'IN', 'AE', 'IL'];
const LANGUAGE_TAGS = ['en', 'de', 'fr', 'it', 'es', 'pt', 'nl', 'sv', 'pl', 'ja', 'ko', 'zh'];
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'DKK', 'PLN', 'JPY', 'AUD', 'BRL'];
const BROWSER_ENDINGS = ['Safari/537.36', 'Firefox/128.0', 'Edg/126.0', 'Mobile/15E148', 'Safari/605.1.15', 'OPR/111.0'];
const SHOP_RANGES = Array.from({ length: 16 }, (_, i) => `${30 + (i % 8) * 25}.${(i * 41) % 256}.0.0/16`);
const SHOPPER_TESTS = [
  (r) => ({ conditionType: 'country', operator: '$notIn', value: some(r, SHOP_COUNTRIES, 2, 6) }),
  () => ({ conditionType: 'header', fieldOption: 'accept-language', operator: '$notExists' }),
  (r) => ({ conditionType: 'header', fieldOption: 'accept-language', operator: '$contains', value: pick(r, LANGUAGE_TAGS) }),
  (r) => ({ conditionType: 'queryParam', fieldOption: 'currency', operator: '$in', value: some(r, CURRENCIES, 1, 3) }),
  (r) => ({ conditionType: 'deviceType', operator: '$eq', value: pick(r, ['tablet', 'mobile']) }),
  (r) => ({ conditionType: 'userAgent', operator: '$notEndsWith', value: pick(r, BROWSER_ENDINGS) }),
  () => ({ conditionType: 'header', fieldOption: 'x-geo-override', operator: '$exists' }),
  (r) => ({ conditionType: 'socketIps', operator: '$notIn', value: some(r, SHOP_RANGES, 1, 2) }),
];

function storefrontGroup(random) {
  const roll = random();
  const storefront = roll < 0.2 ? []
    : roll < 0.65 ? [{ conditionType: 'path', operator: '$startsWith', value: pick(random, LOCALE_PREFIXES) }]
      : [{ conditionType: 'domain', operator: '$endsWith', value: pick(random, COUNTRY_HOSTS) }];
  return { operator: '$and', children: [...storefront, ...some(random, SHOPPER_TESTS, 1, 3).map((test) => test(random))] };
}

export function localeRules(random, count) {
  return namedRules(random, count, 'Locale', 0.9, () => random() < 0.4
    ? { operator: '$or', children: [storefrontGroup(random), storefrontGroup(random)] }
    : { operator: '$and', children: [storefrontGroup(random)] });
}
