// The slow project's time limit per test (jest.config.js; Jest reads testTimeout only from the
// global configuration, so a project sets its own here). Its suites spawn the binary, git, bash
// and Chromium several times per test: on a 2-core machine shared with a type check, a lint and
// another test run, a test of ten idle seconds takes several times that.
import { jest } from '@jest/globals';

jest.setTimeout(180_000);
