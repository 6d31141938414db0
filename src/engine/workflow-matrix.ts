// `botrules config`: the project's apps as a workflow reads them (docs/behaviour.md, "The
// workflow matrix"). The example workflows build their per-app job matrix from it, so the
// config is read by the one loader, with its defaults and its checks, never by a YAML tool of
// the runner's that knows neither.
import { loadProject } from './project.js';
import { displayPath } from '../rules/display-path.js';
import type { ProjectSelection } from '../runtime.js';
import type { MatrixEntry } from '../render/config/index.js';

/** The one-app project's environment; a project that names its apps has one per app. */
const ONE_APP_ENVIRONMENT = 'production';

export async function workflowMatrix(selection: Pick<ProjectSelection, 'config' | 'dir' | 'app'>, cwd: string): Promise<MatrixEntry[]> {
  const config = await loadProject(selection, cwd);
  return config.apps.map((app) => ({
    app: app.name,
    tokenEnv: app.tokenEnv,
    environment: config.oneApp === true ? ONE_APP_ENVIRONMENT : `${ONE_APP_ENVIRONMENT}-${app.name}`,
    rulesDir: displayPath(cwd, app.rulesDir),
  }));
}
