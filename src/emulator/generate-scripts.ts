// Realistic script-inventory records: well-known vendors' scripts and first-party bundles,
// on the given apps and hosts, seen over the last 30 days, with risk ratings and reasons.
// Timestamps carry varied UTC offsets, as a real inventory aggregated from many regions might.
import type { ScriptRecord } from '../scripts/model.js';
import { pick, pickSome, pickWeighted, randomHex, randomInt, type Random } from './random.js';
import { DAY_MS } from '../scripts/time.js';

interface Vendor {
  vendor: string;
  host: string;
  paths: readonly string[];
  type: string;
}

const VENDORS: readonly Vendor[] = [
  { vendor: 'Google Tag Manager', host: 'www.googletagmanager.com', paths: ['/gtm.js', '/gtag/js'], type: 'tag-manager' },
  { vendor: 'Google Analytics', host: 'www.google-analytics.com', paths: ['/analytics.js', '/g/collect'], type: 'analytics' },
  { vendor: 'Stripe', host: 'js.stripe.com', paths: ['/v3/', '/v3/fingerprinted/js/elements-inner.js'], type: 'payment' },
  { vendor: 'PayPal', host: 'www.paypal.com', paths: ['/sdk/js', '/tagmanager/pptm.js'], type: 'payment' },
  { vendor: 'Hotjar', host: 'static.hotjar.com', paths: ['/c/hotjar.js', '/modules.js'], type: 'session-recording' },
  { vendor: 'Meta Pixel', host: 'connect.facebook.net', paths: ['/en_US/fbevents.js', '/signals/config.js'], type: 'advertising' },
  { vendor: 'TikTok Pixel', host: 'analytics.tiktok.com', paths: ['/i18n/pixel/events.js'], type: 'advertising' },
  { vendor: 'Segment', host: 'cdn.segment.com', paths: ['/analytics.js/v1/analytics.min.js'], type: 'analytics' },
  { vendor: 'Intercom', host: 'widget.intercom.io', paths: ['/widget/app.js'], type: 'chat' },
  { vendor: 'Zendesk', host: 'static.zdassets.com', paths: ['/ekr/snippet.js'], type: 'chat' },
  { vendor: 'OneTrust', host: 'cdn.cookielaw.org', paths: ['/scripttemplates/otSDKStub.js'], type: 'consent' },
  { vendor: 'Optimizely', host: 'cdn.optimizely.com', paths: ['/js/project.js'], type: 'ab-testing' },
  { vendor: 'jsDelivr', host: 'cdn.jsdelivr.net', paths: ['/npm/jquery@3.7.1/dist/jquery.min.js', '/npm/lodash@4.17.21/lodash.min.js'], type: 'library' },
  { vendor: 'Unknown', host: 'cdn.js-metrics.net', paths: ['/m.js', '/collect.min.js'], type: 'unknown' },
];

const PAGE_TYPES: readonly string[] = ['home', 'product', 'cart', 'checkout', 'login', 'account', 'search'];

const RISKS: readonly { level: string; reasons: readonly string[]; weight: number }[] = [
  { level: 'low', weight: 0.5, reasons: ['Known vendor, no access to sensitive fields', 'Static library from a trusted CDN'] },
  { level: 'medium', weight: 0.3, reasons: ['Reads form fields outside payment pages', 'Sends data to a third-party domain'] },
  { level: 'high', weight: 0.15, reasons: ['Reads payment form fields', 'Records keystrokes on login pages', 'Loaded from a newly registered domain'] },
  { level: 'critical', weight: 0.05, reasons: ['Exfiltrates card data to an unknown host', 'Obfuscated code injected on checkout'] },
];

const OFFSETS_MINUTES: readonly number[] = [0, 0, 60, 120, -300, -420, 330];

interface ScriptGeneration {
  count: number;
  appIds: readonly string[];
  tlds: readonly string[];
  now: number;
}

export function generateScripts(random: Random, options: ScriptGeneration): ScriptRecord[] {
  const records: ScriptRecord[] = [];
  const keys = new Set<string>();
  for (let i = 0; i < options.count; i++) {
    const tld = pick(random, options.tlds);
    const script = pickScript(random, tld, i);
    const { firstSeen, lastSeen } = sightings(random, options.now);
    const risk = pickWeighted(random, RISKS);
    records.push({
      users_affected_percentage: Math.round(random() * 10000) / 100,
      ack: random() < 0.3,
      key: uniqueKey(random, keys),
      id: script.url,
      app_id: pick(random, options.appIds),
      host_domain: random() < 0.6 ? tld : `${pick(random, ['www', 'shop', 'm'])}.${tld}`,
      type: script.type,
      vendor: script.vendor,
      first_seen: isoWithOffset(firstSeen, pick(random, OFFSETS_MINUTES)),
      last_seen: isoWithOffset(lastSeen, pick(random, OFFSETS_MINUTES)),
      risk: { level: risk.level, reason: pick(random, risk.reasons) },
      page_types: pickSome(random, PAGE_TYPES, randomInt(random, 1, 4)).sort(),
    });
  }
  return records;
}

function uniqueKey(random: Random, taken: Set<string>): string {
  let key = randomHex(random, 24);
  while (taken.has(key)) key = randomHex(random, 24);
  taken.add(key);
  return key;
}

/** A vendor's script (vendors repeat across hosts) or a first-party bundle with a hashed name. */
function pickScript(random: Random, tld: string, index: number): { url: string; vendor: string; type: string } {
  if (random() < 0.25) {
    const url = `https://static.${tld}/assets/app-${index.toString(36)}-${randomHex(random, 8)}.js`;
    return { url, vendor: 'First party', type: 'first-party' };
  }
  const vendor = pick(random, VENDORS);
  const url = `https://${vendor.host}${pick(random, vendor.paths)}?v=${randomHex(random, 6)}`;
  return { url, vendor: vendor.vendor, type: vendor.type };
}

/** First seen within the last 30 days; most scripts are still running, so last seen skews recent. */
function sightings(random: Random, now: number): { firstSeen: number; lastSeen: number } {
  const firstSeen = now - Math.floor(random() * 30 * DAY_MS);
  const stillRunning = random() < 0.7;
  const lastSeen = stillRunning
    ? now - Math.floor(random() * (now - firstSeen) * 0.05)
    : firstSeen + Math.floor(random() * (now - firstSeen));
  return { firstSeen, lastSeen };
}

/** ISO 8601 with an explicit offset, e.g. 2024-05-01T09:30:00.000+02:00. */
export function isoWithOffset(epochMs: number, offsetMinutes: number): string {
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}
