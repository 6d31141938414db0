// TLS with a client that is not Node: curl, given the emulator's CA file and nothing else,
// verifies the certificate and lists the rules (test/emulator/tls.test.ts holds the rest).
import { execFile } from 'node:child_process';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { describeUnless, findProgram } from '../helpers/programs.js';

const curl = findProgram('curl');

describeUnless(curl === undefined ? 'no curl on PATH' : undefined, 'a client that is not Node', () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ generateRules: 2 });
  });
  afterAll(() => t.close());

  test('curl --cacert lists the rules', async () => {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        curl ?? 'curl',
        ['-sS', '--fail', '--cacert', t.emulator.caPath, '-H', `Authorization: Bearer ${t.env.BOTRULES_TOKEN}`, `${t.emulator.consoleUrl}/v2/botProtection/customRules`],
        (err, stdout, stderr) => (err ? reject(new Error(`curl failed: ${stderr}`)) : resolve(stdout)),
      );
    });
    expect((JSON.parse(output) as { content: unknown[] }).content).toHaveLength(2);
  });
});
