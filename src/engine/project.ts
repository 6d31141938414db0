// The project a command works on: its config (apps, their rules directories and tokens' names,
// limits, replay settings, policy paths) read once at the start of the use case and handed to
// every function that needs it, so that no step reads the config file again.
import { loadProjectConfig, selectApp, type AppConfig, type ProjectConfig } from '../rules/config.js';
import type { ProjectSelection } from '../runtime.js';

/** The loaded config; with --app, `apps` holds the selected apps and `otherApps` the rest. */
export type Project = ProjectConfig;

/** Reads the config once, with --app applied (an unknown app is an error here). */
export async function loadProject(selection: Pick<ProjectSelection, 'config' | 'dir' | 'app'>, cwd: string): Promise<Project> {
  return selectApp(await loadEveryApp(selection, cwd), selection.app);
}

/** Reads the config once, every app selected: for a command that reports other problems before an unknown --app. */
export async function loadEveryApp(selection: Pick<ProjectSelection, 'config' | 'dir'>, cwd: string): Promise<Project> {
  return loadProjectConfig({ cwd, config: selection.config, dir: selection.dir });
}

/** Every configured app, the selected first: what a policy or a saved plan may name. */
export function everyApp(project: Project): AppConfig[] {
  return [...project.apps, ...(project.otherApps ?? [])];
}
