// Realistic, valid custom rules for demos and benchmarks: each rule has a theme (a name, an
// action, the conditions that express it) plus some random extra conditions drawn from a
// pool that covers every condition type and operator. Deterministic for a given generator.
import type { Action, Conditions, Group, GroupOperator, Leaf, Rule, Status } from '../semantics/model.js';
import { pick, pickSome, randomInt, type Random } from './random.js';

interface Theme {
  title: string;
  actions: Action[];
  leaves: Leaf[];
}

const THEMES: readonly Theme[] = [
  { title: 'block scrapers on /search', actions: ['hardBlock'], leaves: [
    { conditionType: 'path', operator: '$startsWith', value: '/search' },
    { conditionType: 'userAgent', operator: '$re', value: ['[Ss]crapy|python-requests|curl/'] },
  ] },
  { title: 'allow uptime monitors', actions: ['allow'], leaves: [
    { conditionType: 'userAgent', operator: '$contains', value: 'Pingdom' },
    { conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' },
  ] },
  { title: 'challenge datacenter ASNs on /login', actions: ['blockWithChallenge'], leaves: [
    { conditionType: 'socketIpASN', operator: '$in', value: ['14061', '16509', '24940'] },
    { conditionType: 'path', operator: '$eq', value: '/login' },
  ] },
  { title: 'block credential stuffing on /account', actions: ['hardBlock'], leaves: [
    { conditionType: 'httpMethod', operator: '$eq', value: 'POST' },
    { conditionType: 'path', operator: '$startsWith', value: '/account' },
  ] },
  { title: 'challenge checkout from unexpected countries', actions: ['blockWithChallenge'], leaves: [
    { conditionType: 'path', operator: '$startsWith', value: '/checkout' },
    { conditionType: 'country', operator: '$notIn', value: ['US', 'CA', 'GB', 'DE', 'FR'] },
  ] },
  { title: 'allow partner API clients', actions: ['allow'], leaves: [
    { conditionType: 'header', fieldOption: 'x-partner-key', operator: '$exists' },
    { conditionType: 'domain', operator: '$eq', value: 'api.shop.example.com' },
  ] },
  { title: 'block headless browsers', actions: ['hardBlock', 'blockWithChallenge'], leaves: [
    { conditionType: 'userAgent', operator: '$re', value: ['HeadlessChrome', 'PhantomJS'] },
  ] },
  { title: 'challenge coupon abuse', actions: ['blockWithChallenge'], leaves: [
    { conditionType: 'queryParam', fieldOption: 'coupon', operator: '$exists' },
    { conditionType: 'deviceType', operator: '$ne', value: 'mobile' },
  ] },
  { title: 'allow internal office network', actions: ['allow'], leaves: [
    { conditionType: 'socketIps', operator: '$in', value: ['203.0.113.0/24', '198.51.100.7'] },
  ] },
  { title: 'block inventory hoarding bots', actions: ['hardBlock'], leaves: [
    { conditionType: 'path', operator: '$endsWith', value: '/add-to-cart' },
    { conditionType: 'customParam', fieldOption: 'session_age', operator: '$eq', value: 'new' },
  ] },
];

/** Extra conditions mixed into generated rules; together they use every type and operator. */
const EXTRA_LEAVES: readonly Leaf[] = [
  { conditionType: 'domain', operator: '$endsWith', value: '.shop.example.com' },
  { conditionType: 'domain', operator: '$notEndsWith', value: '.internal.example.com' },
  { conditionType: 'userAgent', operator: '$startsWith', value: 'Mozilla/5.0' },
  { conditionType: 'userAgent', operator: '$ne', value: 'GoogleBot' },
  { conditionType: 'socketIps', operator: '$notIn', value: ['192.0.2.10'] },
  { conditionType: 'socketIpASN', operator: '$eq', value: '9009' },
  { conditionType: 'path', operator: '$contains', value: '/api/' },
  { conditionType: 'path', operator: '$re', value: ['^/product/[0-9]+$'] },
  { conditionType: 'queryParam', fieldOption: 'page', operator: '$re', value: ['^[0-9]{3,}$'] },
  { conditionType: 'queryParam', fieldOption: 'debug', operator: '$notExists' },
  { conditionType: 'header', fieldOption: 'accept-language', operator: '$notExists' },
  { conditionType: 'header', fieldOption: 'referer', operator: '$contains', value: 'example.net' },
  { conditionType: 'httpMethod', operator: '$in', value: ['POST', 'PUT', 'DELETE'] },
  { conditionType: 'deviceType', operator: '$eq', value: 'desktop' },
  { conditionType: 'country', operator: '$in', value: ['KP', 'IR'] },
  { conditionType: 'customParam', fieldOption: 'risk_score', operator: '$in', value: ['high', 'critical'] },
];

const DESCRIPTIONS: readonly string[] = [
  'Added after the incident review.',
  'Requested by the fraud team.',
  'Tuned from last quarter\'s traffic analysis.',
  'Temporary: revisit after the sale.',
];

/** `count` rules named "Generated rule NNNN — <theme>", numbered from `firstNumber`. */
export function generateRules(random: Random, count: number, firstNumber = 1): Rule[] {
  const rules: Rule[] = [];
  for (let i = 0; i < count; i++) {
    const theme = pick(random, THEMES);
    const number = String(firstNumber + i).padStart(4, '0');
    const status: Status = random() < 0.85 ? 'active' : 'paused';
    rules.push({
      name: `Generated rule ${number} — ${theme.title}`,
      description: random() < 0.6 ? pick(random, DESCRIPTIONS) : '',
      status,
      actions: [...theme.actions],
      conditions: conditionsFor(random, theme),
    });
  }
  return rules;
}

function conditionsFor(random: Random, theme: Theme): Conditions {
  const groups: Group[] = [{ operator: '$and', children: structuredClone(theme.leaves) }];
  const extraGroups = randomInt(random, 0, 2);
  for (let g = 0; g < extraGroups; g++) {
    const operator: GroupOperator = random() < 0.5 ? '$and' : '$or';
    groups.push({ operator, children: structuredClone(pickSome(random, EXTRA_LEAVES, randomInt(random, 1, 3))) });
  }
  // With several groups the root usually ORs alternatives; a single group reads either way.
  return { operator: groups.length > 1 && random() < 0.7 ? '$or' : '$and', children: groups };
}
