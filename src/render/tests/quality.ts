// The formats of `botrules test --coverage` / `--mutate` (the renderer contract of
// src/render/contract.ts): text for a terminal, JSON for tools, Markdown for the pull-request
// comment, SARIF (uncovered rules and surviving mutants as notes on their lines) and JUnit (the
// test results with the figures as properties).
import type { RendererRegistry } from '../contract.js';
import type { QualityView } from './quality-model.js';
import { renderQualityJson, renderQualityJunit, renderQualitySarif } from './quality-data.js';
import { renderQualityMarkdown } from './quality-markdown.js';
import { renderQualityText } from './quality-text.js';

export type { QualityView, CoverageView, MutationView } from './quality-model.js';

export const QUALITY_RENDERERS = {
  text: renderQualityText,
  json: renderQualityJson,
  markdown: renderQualityMarkdown,
  sarif: renderQualitySarif,
  junit: renderQualityJunit,
} as const satisfies RendererRegistry<QualityView>;

export type QualityFormat = keyof typeof QUALITY_RENDERERS;

