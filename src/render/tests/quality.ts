// The formats of `botrules test --coverage` / `--mutate` (the renderer contract of
// src/render/contract.ts): text for a terminal, JSON for tools, Markdown for the pull-request
// comment, SARIF (uncovered rules and surviving mutants as notes on their lines) and JUnit (the
// test results with the figures as properties). Beside a document, stderr has the tests'
// summary and each threshold not met.
import type { OutputRegistry, RenderOptions, Sink } from '../contract.js';
import type { QualityView } from './quality-model.js';
import { renderQualityJson, renderQualityJunit, renderQualitySarif } from './quality-data.js';
import { renderQualityMarkdown } from './quality-markdown.js';
import { renderQualityText } from './quality-text.js';
import { summary } from './text.js';


/** The tests' summary and the thresholds not met, for stderr beside a document. */
async function renderQualityLog(view: QualityView, out: Sink, { colors }: RenderOptions): Promise<void> {
  const shortfalls = [...(view.coverage?.shortfalls ?? []), ...(view.mutation?.shortfalls ?? [])];
  await out.write([summary(view.results), ...shortfalls.map((line) => colors.red(line))].map((line) => `${line}\n`).join(''));
}

export const QUALITY_OUTPUTS = {
  text: { stdout: renderQualityText },
  json: { stdout: renderQualityJson, stderr: renderQualityLog },
  markdown: { stdout: renderQualityMarkdown, stderr: renderQualityLog },
  sarif: { stdout: renderQualitySarif, stderr: renderQualityLog },
  junit: { stdout: renderQualityJunit, stderr: renderQualityLog },
} as const satisfies OutputRegistry<QualityView>;
