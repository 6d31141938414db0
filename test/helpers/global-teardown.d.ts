/** Jest global teardown (global-teardown.js): fails the run when tests left temporary entries. */
export default function globalTeardown(): void;
