/** Jest global set-up (global-setup.js): the run's own temporary directories. */
export default function globalSetup(): void;
