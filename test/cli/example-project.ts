// The example project of this repository (rules/ and policies/ at its root) copied into a
// temporary directory, and the rule the README plants in it: a hard block on the cloud
// networks, first in the list, which breaks all three example policies.
import { cpSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';

export const ROOT = path.join(import.meta.dirname, '..', '..');

export const PLANTED = [
  'rules:',
  '  - name: Block cloud networks',
  '    actions: [hardBlock]',
  '    conditions:',
  '      operator: $or',
  '      children:',
  '        - operator: $and',
  '          children:',
  "            - { conditionType: socketIpASN, operator: $in, value: ['15169', '16509'] }",
  '',
].join('\n');

export function exampleProject(prefix: string): string {
  const dir = tempDir(prefix);
  cpSync(path.join(ROOT, 'rules'), path.join(dir, 'rules'), { recursive: true });
  cpSync(path.join(ROOT, 'policies'), path.join(dir, 'policies'), { recursive: true });
  return dir;
}
