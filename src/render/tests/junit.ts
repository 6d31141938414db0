// `botrules test --format junit`: JUnit XML, the format CI test-report viewers read (one
// testsuite per test file, one testcase per test, a failure element with the reasons).
// The XML text is built by fast-xml-builder, which escapes markup characters; characters
// XML 1.0 cannot carry at all (most control characters) are replaced first.
import XMLBuilder from 'fast-xml-builder';
import type { TestResult } from '../../tests/run.js';
import { testReasonWords } from './reasons.js';
import type { Sink } from '../contract.js';

/** Characters outside XML 1.0's Char production, and lone surrogates: matching control characters is the point. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

/** `properties`: figures of the run (coverage, mutation score) in a testsuite of their own. */
export function renderTestJunit(results: readonly TestResult[], out: Sink, properties: readonly (readonly [string, string])[] = []): void {
  const files = [...new Set(results.map((result) => result.test.source.file))];
  const suites: Record<string, unknown>[] = files.map((file) => {
    const inFile = results.filter((result) => result.test.source.file === file);
    return {
      '@_name': xmlText(file),
      '@_tests': inFile.length,
      '@_failures': inFile.filter((result) => !result.passed).length,
      '@_errors': 0,
      testcase: inFile.map(testcase),
    };
  });
  if (properties.length > 0) {
    const property = properties.map(([name, value]) => ({ '@_name': xmlText(name), '@_value': xmlText(value) }));
    suites.push({ '@_name': 'botrules test quality', '@_tests': 0, '@_failures': 0, '@_errors': 0, properties: { property } });
  }
  const failures = results.filter((result) => !result.passed).length;
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: { '@_name': 'botrules test', '@_tests': results.length, '@_failures': failures, '@_errors': 0, testsuite: suites },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true, processEntities: true });
  out.write(`${builder.build(document) as string}`);
}

function testcase(result: TestResult): Record<string, unknown> {
  const { file, line } = result.test.source;
  const base = { '@_name': xmlText(result.test.name), '@_classname': xmlText(file), '@_file': xmlText(file), '@_line': line };
  if (result.passed) return base;
  const reasons = result.reasons.map(testReasonWords);
  return { ...base, failure: { '@_message': xmlText(reasons[0] ?? 'failed'), '@_type': 'expectation', '#text': xmlText(reasons.join('\n')) } };
}
