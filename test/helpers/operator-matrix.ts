// The coverage line of the built-in policy operator-matrix (docs/behaviour.md, "Built-in
// policies"), written out here rather than taken from src/, so that a test comparing whole
// output fails when the line changes or goes missing.
/** The message: which condition types were not checked, how many leaves, and the first rule. */
export function matrixCoverage(types: string, leaves: number, rule: string): string {
  return `operator-matrix: checked userAgent, domain; not checked: ${types} (${leaves === 1 ? '1 leaf' : `${leaves} leaves`}, the first in rule ${JSON.stringify(rule)}): ` +
    'the service\'s "Custom rule operators and conditions" page, as botrules read it, gives no operator list for those condition types, so their operators are not known to be supported';
}

/** The line validate and plan write for it, `FILE:LINE:COL: info: … [operator-matrix]`. */
export function matrixCoverageLine(where: string, types: string, leaves: number, rule: string): string {
  return `${where}: info: ${matrixCoverage(types, leaves, rule)} [operator-matrix]`;
}

/** Its line at the end of the Markdown plan (the pull-request comment), escaped as Markdown text. */
export function matrixCoverageNote(where: string, types: string, leaves: number, rule: string): string {
  return `_${where}: ${matrixCoverage(types, leaves, rule).replace(/"/g, '&quot;').replace(/'/g, '&#39;')} \\[operator-matrix\\]_`;
}
