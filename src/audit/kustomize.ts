import * as path from 'path';
import { kustomizationPaths } from '../core/kustomization';
import { isObject, listAt, LocatedManifest, Manifest } from '../core/manifest';
import { isKustomizationFile } from '../core/source-paths';

/**
 * What the kustomization files of a repository say of its other files, as far as they can be told without running
 * Kustomize: in a folder that holds a kustomization file, Kustomize builds only the files listed under `resources`
 * (or `bases`, `components`, `crds`) of some kustomization; a patch file is a fragment merged into another object; any
 * other file there is never deployed by that folder.
 */
export interface KustomizeLayout {
  /** Whether any folder holds a kustomization file. */
  readonly any: boolean;
  /** Whether the folder holds a kustomization file. */
  readonly isKustomizeDir: (dir: string) => boolean;
  /** Whether Kustomize builds the objects of a file as they are written (listed as a resource by a kustomization). */
  readonly isListedResource: (file: string) => boolean;
  /** Whether a kustomization merges the file into other objects as a patch. */
  readonly isPatch: (file: string) => boolean;
  /** Whether the file lies in a folder that holds a kustomization file, or below one. */
  readonly underKustomization: (file: string) => boolean;
  /** Whether a configMapGenerator or secretGenerator reads the file (`files`, `envs`, `env`): data, not a manifest. */
  readonly isGeneratorInput: (file: string) => boolean;
}

/** The generators of a kustomization, whose inputs are files of data. */
const GENERATORS = ['configMapGenerator', 'secretGenerator'];

/** The files a kustomization's generators read, relative to its folder (`key=path` or `path`; `envs` and the older `env`). */
function generatorInputs(kustomization: Manifest): string[] {
  const inputs: string[] = [];
  for (const field of GENERATORS) {
    for (const generator of listAt(kustomization, field)) {
      for (const entry of listAt(generator, 'files')) {
        if (typeof entry === 'string') {
          inputs.push(entry.slice(entry.indexOf('=') + 1).trim());
        }
      }
      for (const entry of [...listAt(generator, 'envs'), ...isObject(generator) ? [generator.env] : []]) {
        if (typeof entry === 'string') {
          inputs.push(entry.trim());
        }
      }
    }
  }
  return inputs.filter((p) => p !== '');
}

/**
 * The layout the kustomization files make: `paths` are every file of the repository (the folders a kustomization file
 * makes Kustomize folders), `objects` the parsed objects, among which the kustomizations themselves (parseManifests
 * reads a kustomization file without apiVersion and kind as one).
 */
export function kustomizeLayout(paths: readonly string[], objects: readonly LocatedManifest[]): KustomizeLayout {
  const kustomizeDirs = new Set<string>();
  const listed = new Set<string>();
  const patches = new Set<string>();
  for (const name of paths) {
    if (isKustomizationFile(name)) {
      kustomizeDirs.add(path.posix.dirname(name));
    }
  }
  const inputs = new Set<string>();
  // Without a kustomization file, no object is one.
  for (const { manifest: kustomization, location } of kustomizeDirs.size > 0 ? objects : []) {
    if (!isKustomizationFile(location.file)) {
      continue;
    }
    const dir = path.posix.dirname(location.file);
    for (const input of generatorInputs(kustomization)) {
      inputs.add(path.posix.normalize(path.posix.join(dir, input)));
    }
    for (const { entry, patch } of kustomizationPaths(kustomization)) {
      (patch ? patches : listed).add(path.posix.normalize(path.posix.join(dir, entry)));
    }
  }
  return {
    any: kustomizeDirs.size > 0,
    isKustomizeDir: (dir) => kustomizeDirs.has(dir),
    isListedResource: (file) => listed.has(file),
    isPatch: (file) => patches.has(file),
    isGeneratorInput: (file) => inputs.has(file),
    underKustomization: (file) => {
      for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
        if (kustomizeDirs.has(dir)) {
          return true;
        }
        if (dir === '.' || dir === '/' || dir === '') {
          return false;
        }
      }
    },
  };
}
