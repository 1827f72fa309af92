import * as fs from 'fs';
import * as path from 'path';
import { parseYamlValue } from '../core/yaml-text';

/**
 * The root of the Git work tree that holds `dir`: the nearest folder, from `dir` up, with a `.git` entry
 * (a folder, or a file in a linked work tree or a submodule); undefined outside any work tree.
 */
export function gitRoot(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) {
      return d;
    }
    if (path.dirname(d) === d) {
      return undefined;
    }
  }
}

/**
 * The output folder that `cdk8s.yaml` in `dir` names (its `output` key), as the cdk8s CLI reads it;
 * undefined when there is no such file or it names none.
 */
export function cdk8sConfiguredOutput(dir: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, 'cdk8s.yaml'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const output = (parseYamlValue(text, { maxAliasCount: 0 }) as { output?: unknown } | null)?.output;
    return typeof output === 'string' && output.length > 0 ? output : undefined;
  } catch {
    return undefined;
  }
}

/** `target` relative to `root`, `/`-separated, when it lies inside `root` (`''` for `root` itself); else undefined. */
export function pathInside(root: string, target: string): string | undefined {
  const rel = path.relative(root, target);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    return undefined;
  }
  return rel.split(path.sep).join('/');
}
