// recheck's checker in plain JavaScript, run in this process (its main entry starts a native
// binary or a worker through paths a bundle cannot carry): the same function as the package's.
// A CommonJS module: imported from an ES module, its exports may come as `default`.
declare module 'recheck/lib/browser.js' {
  export const checkSync: typeof import('recheck').checkSync | undefined;
  const exported: { checkSync: typeof import('recheck').checkSync } | undefined;
  export default exported;
}
