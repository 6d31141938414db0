// breakableUrl (src/render/html.ts): a script location in the evidence pack wraps only after
// its separators, so no path segment, host or parameter is cut, and escaping still holds.
import { breakableUrl } from '../../src/render/html.js';

it('puts a break opportunity after each run of separators, and nowhere else in short parts', () => {
  expect(breakableUrl('https://js.stripe.com/v3/elements.js?lang=en&v=2#top')).toBe('https://<wbr>js.stripe.com/<wbr>v3/<wbr>elements.js?<wbr>lang=<wbr>en&amp;<wbr>v=<wbr>2#<wbr>top');
  expect(breakableUrl('series/2026-01-05/scripts-snapshot.json')).toBe('series/<wbr>2026-01-05/<wbr>scripts-snapshot.json');
  expect(breakableUrl('pattern: https://cdn.example/')).toBe('pattern: https://<wbr>cdn.example/');
});

it('lets only a part longer than 32 characters wrap after . - or _', () => {
  expect(breakableUrl('https://cdn.example/a-very-long-bundle-name_with.parts.min.js')).toBe('https://<wbr>cdn.example/<wbr>a-<wbr>very-<wbr>long-<wbr>bundle-<wbr>name_<wbr>with.<wbr>parts.<wbr>min.<wbr>js');
  expect(breakableUrl('https://cdn.example/short-name.min.js')).toBe('https://<wbr>cdn.example/<wbr>short-name.min.js');
});

it('escapes every part: hostile text cannot open an element', () => {
  expect(breakableUrl('https://x.example/"><script>alert(1)</script>')).toBe('https://<wbr>x.example/<wbr>&quot;&gt;&lt;script&gt;alert(1)&lt;/<wbr>script&gt;');
  expect(breakableUrl(undefined)).toBe('');
});
