#!/usr/bin/env node
// The built CLI lives in dist/ (npm ci runs `prepare`, which builds it).
import { runFromProcess } from '../dist/cli/main.js';

await runFromProcess();
