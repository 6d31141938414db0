// esbuild bundles of the built CLI (dist/cli/main.js, after tsc), two of them:
//
// - `node scripts/bundle.js cli` (part of `npm run build`): dist/bundle/, what bin/botrules.js
//   runs. Split into chunks at the CLI's own lazy imports (one per command, yargs, the YAML
//   reader...), so a command loads a few files instead of some 250 modules of dist/ and
//   node_modules/; `--version` and `--help` still load no command. Start-up is about 0.1 s
//   shorter for every command (bench/README.md, "Start-up").
// - `node scripts/bundle.js action [FILE]` (`npm run bundle`): dist-action/botrules.mjs, one file.
//   The GitHub action runs it with plain `node`: no npm install, no lifecycle scripts and no
//   node_modules in any step that sees a token (docs/security.md, "The action installs nothing").
//   It is not committed on the default branch (the sources change faster than anyone would
//   rebuild it); CI builds it and runs the CLI tests against it, and the release workflow
//   commits it into the release commit that the action's version tags point to.
//
// Both bundles hold every package they use: nothing is imported from node_modules at run time.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';

const [target = 'action', output] = process.argv.slice(2);
const root = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * src/io/yaml-source.ts loads the `yaml` package lazily through createRequire, a call a
 * bundler cannot follow. In the bundle it becomes a static import of the same package, so the
 * bundle needs nothing at run time. If that code changes shape, this fails the build loudly
 * rather than producing a bundle that looks for node_modules.
 */
const lazyYaml = {
  name: 'botrules-lazy-yaml',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]io[\\/]yaml-source\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('createRequire')) return undefined;
      const call = /\brequireModule\('yaml'\)/g;
      if (!call.test(source)) throw new Error(`${args.path} no longer loads yaml through requireModule('yaml'): update ${'scripts/bundle.js'}`);
      const rewritten = `import * as bundledYaml from 'yaml';\n${source.replace(call, 'bundledYaml')}`;
      return { contents: rewritten, loader: 'js' };
    });
  },
};

/**
 * `string-width` (three copies: yargs', cliui's and wrap-ansi's) builds an Intl.Segmenter and
 * Unicode-property regular expressions (RGI_Emoji...) when its module loads: some 20 to 50 ms of
 * every command, though only --help measures text. Each import of it becomes a small module
 * that loads the real one on the first call: esbuild evaluates a module that is require()d
 * only when that require runs (bench/README.md, "Start-up").
 */
const lazyStringWidth = {
  name: 'botrules-lazy-string-width',
  setup(bundler) {
    bundler.onResolve({ filter: /^string-width$/ }, async (args) => {
      // Only the copies of the help's layout (yargs, cliui, wrap-ansi), all ES modules.
      if (args.pluginData === 'real' || !/[\\/]node_modules[\\/](yargs|cliui|wrap-ansi)[\\/]/.test(args.importer)) return undefined;
      const real = await bundler.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'lazy-string-width' };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
      contents: `let measure;\nexport default function stringWidth(...args) {\n  measure ??= require(${JSON.stringify(args.path)}).default;\n  return measure(...args);\n}\n`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/** Packages left out of the bundle, loaded at run time by the one command option that needs them. */
const OPTIONAL_PACKAGES = ['@duckdb/node-api'];

/** What the two targets share: Node 20, ES modules, every package inside. */
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Some dependencies are CommonJS: they call require() for Node's own modules, and
  // write-file-atomic hashes __filename into its temporary files' names.
  banner: {
    js:
      `// botrules ${version}: the bundled CLI (scripts/bundle.js). Do not edit.\n` +
      "import { createRequire as __botrulesCreateRequire } from 'node:module';\n" +
      "import { fileURLToPath as __botrulesFileURLToPath } from 'node:url';\n" +
      'const require = __botrulesCreateRequire(import.meta.url);\n' +
      'const __filename = __botrulesFileURLToPath(import.meta.url);',
  },
  legalComments: 'eof',
  logLevel: 'warning',
  metafile: true,
  plugins: [lazyYaml, lazyStringWidth],
  // The DuckDB engine's package carries a native binary: it cannot be inside one JavaScript file.
  // It is imported only by --engine duckdb (and Parquet logs), which says how to get it when absent.
  external: OPTIONAL_PACKAGES,
};

let result;
if (target === 'cli') {
  const outdir = output ?? `${root}dist/bundle`;
  // Chunk names carry content hashes: stale chunks of an earlier build must not pile up.
  rmSync(outdir, { recursive: true, force: true });
  result = await build({ ...common, entryPoints: { main: `${root}dist/cli/main.js` }, outdir, splitting: true, outExtension: { '.js': '.mjs' }, chunkNames: 'chunks/[name]-[hash]' });
} else if (target === 'action') {
  result = await build({
    ...common,
    stdin: { contents: "import { runFromProcess } from './dist/cli/main.js';\nawait runFromProcess();\n", resolveDir: root, sourcefile: 'botrules-action.js', loader: 'js' },
    outfile: output ?? `${root}dist-action/botrules.mjs`,
  });
} else {
  console.error(`usage: node scripts/bundle.js cli [DIR] | action [FILE]`);
  process.exit(2);
}

// Everything but Node's own modules must be inside the bundle.
const imported = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
const packages = [...new Set(imported.filter((path) => !path.startsWith('node:') && !builtinModules.includes(path) && !OPTIONAL_PACKAGES.includes(path)))];
if (packages.length > 0) {
  console.error(`the bundle still imports packages at run time: ${packages.join(', ')}`);
  process.exit(1);
}
