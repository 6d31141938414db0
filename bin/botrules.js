#!/usr/bin/env node
// The built CLI: dist/bundle/, esbuild's chunks of dist/ (npm ci runs `prepare`, which builds
// both; scripts/bundle.js says why the CLI runs bundled).
import { runFromProcess } from '../dist/bundle/main.mjs';

await runFromProcess();
