// `npm run bundle` (after `npm run build`): the whole CLI as one JavaScript file,
// dist-action/botrules.mjs, made with esbuild from the built bin/botrules.js. The GitHub
// action runs this file with plain `node`: no npm install, no lifecycle scripts and no
// node_modules in any step that sees a token (docs/security.md, "The action installs nothing").
//
// The bundle is not committed on the default branch (the sources change faster than anyone
// would rebuild it); CI builds it and runs the CLI tests against it, and the release
// workflow commits it into the release commit that the action's version tags point to.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';

const OUTPUT = process.argv[2] ?? 'dist-action/botrules.mjs';
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * src/located/yaml-source.ts loads the `yaml` package lazily through createRequire, a call a
 * bundler cannot follow. In the bundle it becomes a static import of the same package, so the
 * bundle needs nothing at run time. If that code changes shape, this fails the build loudly
 * rather than producing a bundle that looks for node_modules.
 */
const lazyYaml = {
  name: 'botrules-lazy-yaml',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]located[\\/]yaml-source\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('createRequire')) return undefined;
      const call = /\brequireModule\('yaml'\)/g;
      if (!call.test(source)) throw new Error(`${args.path} no longer loads yaml through requireModule('yaml'): update ${'scripts/bundle.js'}`);
      const rewritten = `import * as bundledYaml from 'yaml';\n${source.replace(call, 'bundledYaml')}`;
      return { contents: rewritten, loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [new URL('../bin/botrules.js', import.meta.url).pathname],
  outfile: OUTPUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Some dependencies are CommonJS and call require() for Node's own modules.
  banner: { js: `// botrules ${version}: the bundled CLI (npm run bundle). Do not edit.\nimport { createRequire as __botrulesCreateRequire } from 'node:module';\nconst require = __botrulesCreateRequire(import.meta.url);` },
  legalComments: 'eof',
  logLevel: 'warning',
  metafile: true,
  plugins: [lazyYaml],
});

// Everything but Node's own modules must be inside the bundle.
const imported = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
const packages = [...new Set(imported.filter((path) => !path.startsWith('node:') && !builtinModules.includes(path)))];
if (packages.length > 0) {
  console.error(`the bundle still imports packages at run time: ${packages.join(', ')}`);
  process.exit(1);
}
