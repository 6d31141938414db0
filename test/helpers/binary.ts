// The CLI file the real-binary tests run: bin/botrules.js (the build), or the file named by
// BOTRULES_TEST_BINARY. CI sets it to the esbuild bundle (dist-action/botrules.mjs), so the
// bundled CLI the action runs passes the same tests as the build.
import path from 'node:path';

export const CLI_BINARY = path.resolve(process.env.BOTRULES_TEST_BINARY ?? 'bin/botrules.js');
