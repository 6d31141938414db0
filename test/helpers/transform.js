// Jest's TypeScript transform: esbuild strips the types, file by file, and checks nothing.
// `npm run typecheck` type-checks src/, test/ and bench/ in one program, so a second check per
// test file would only repeat it; transpiling alone keeps a cold run of the fast tier short.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { transform as transformAsync, transformSync } from 'esbuild';

const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version;
/** Changes whenever this file or esbuild changes, so Jest's cache never serves an older output. */
const transformerKey = createHash('sha256').update(readFileSync(new URL(import.meta.url))).update(esbuildVersion).digest('hex');

function esbuildOptions(sourcePath, options) {
  return {
    loader: 'ts',
    // Jest asks for ES modules when it runs with --experimental-vm-modules (extensionsToTreatAsEsm).
    format: options.supportsStaticESM ? 'esm' : 'cjs',
    // The target of tsconfig.json, so the tests run the same syntax (class fields included) the build emits.
    target: 'es2022',
    tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true } },
    sourcemap: 'external',
    sourcefile: sourcePath,
    sourcesContent: false,
  };
}

/** Synchronous: esbuild starts a process per call. Jest uses it only where it cannot wait. */
function process(sourceText, sourcePath, options) {
  const { code, map } = transformSync(sourceText, esbuildOptions(sourcePath, options));
  return { code, map };
}

/** What Jest uses for ES modules: one long-lived esbuild service answers every file. */
async function processAsync(sourceText, sourcePath, options) {
  const { code, map } = await transformAsync(sourceText, esbuildOptions(sourcePath, options));
  return { code, map };
}

export default {
  canInstrument: false,
  process,
  processAsync,
  getCacheKey(sourceText, sourcePath, options) {
    return createHash('sha256')
      .update(transformerKey)
      .update(sourceText)
      .update(sourcePath)
      .update(options.configString)
      .update(String(options.supportsStaticESM))
      .digest('hex');
  },
};
