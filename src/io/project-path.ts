// Input files stay inside the project: a rule, config or policy file that is a symbolic link
// is read only when its real path lies inside the project directory, the working directory
// botrules runs in (docs/behaviour.md, "Files stay inside the project"). A pull
// request could otherwise add `rules/x.yaml -> /home/runner/.ssh/id_rsa` and have the
// validate job print parts of it in its problems.
import { lstatSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';

type Placement = 'inside' | 'outside' | 'missing';

/** Where `absPath` really is relative to `projectDir`; 'missing' when it (or its link target) does not exist. */
export function placement(absPath: string, projectDir: string): Placement {
  let real: string;
  try {
    real = realpathSync(absPath);
  } catch {
    return 'missing';
  }
  const root = realProjectDir(projectDir);
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`) ? 'inside' : 'outside';
}

/** `placement` of a symbolic link; 'inside' for anything else (a missing file included). */
export function linkPlacement(absPath: string, projectDir: string): Placement {
  try {
    return lstatSync(absPath).isSymbolicLink() ? placement(absPath, projectDir) : 'inside';
  } catch {
    return 'inside';
  }
}

/** The sentence for a file that is not inside: `FILE: <this>`. */
export function placementMessage(where: Exclude<Placement, 'inside'>, what: string): string {
  return where === 'missing'
    ? `${what} is a symbolic link to a file that does not exist; fix or remove the link`
    : `${what} is a symbolic link to outside the project directory; botrules follows links only to places inside the directory it runs in`;
}

const realRoots = new Map<string, string>();
function realProjectDir(projectDir: string): string {
  let real = realRoots.get(projectDir);
  if (real === undefined) {
    try {
      real = realpathSync(projectDir);
    } catch {
      real = projectDir;
    }
    realRoots.set(projectDir, real);
  }
  return real;
}
