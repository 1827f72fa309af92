import * as path from 'path';
import { isObject, listAt, Manifest } from './manifest';

/** Kustomize fields whose entries are files or folders of objects built as written. */
const RESOURCE_FIELDS = ['resources', 'bases', 'components', 'crds'];
/** Kustomize fields whose entries name patch files (a bare name, or `path:` of an entry). */
const PATCH_FIELDS = ['patches', 'patchesStrategicMerge', 'patchesJson6902'];
/** A remote base or resource (a URL, or host/org/repo?ref=), which is no file of the repository. */
export const REMOTE = /:\/\/|\?ref=|^github\.com\//;

/** A path a kustomization names, relative to its folder, with the pointer to where it is written. */
export interface KustomizationPath {
  readonly entry: string;
  readonly pointer: string;
  /** Whether it names a patch (a fragment merged into other objects) rather than objects built as written. */
  readonly patch: boolean;
}

/** The paths of the repository a kustomization names: remote bases and resources, and patches written inline, left out. */
export function kustomizationPaths(kustomization: Manifest): KustomizationPath[] {
  const found: KustomizationPath[] = [];
  const add = (entry: unknown, pointer: string, patch: boolean) => {
    if (typeof entry === 'string' && entry.trim() !== '' && !REMOTE.test(entry)) {
      found.push({ entry, pointer, patch });
    }
  };
  for (const field of RESOURCE_FIELDS) {
    listAt(kustomization, field).forEach((entry, i) => add(entry, `/${field}/${i}`, false));
  }
  for (const field of PATCH_FIELDS) {
    listAt(kustomization, field).forEach((entry, i) => {
      // A patch is a file (`- path: x.yaml`, or a bare name in patchesStrategicMerge) or written inline (several lines, or `key: value`).
      if (typeof entry === 'string' && !entry.includes('\n') && !entry.includes(': ')) {
        add(entry, `/${field}/${i}`, true);
      } else if (isObject(entry)) {
        add(entry.path, `/${field}/${i}/path`, true);
      }
    });
  }
  return found;
}

/**
 * The files and folders a kustomization lists under `fields`, resolved against its folder `dir`: remote bases and
 * entries that are no path left out.
 */
export function listedPaths(kustomization: Manifest, dir: string, fields: readonly string[]): string[] {
  return fields
    .flatMap((field) => listAt(kustomization, field))
    .filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '' && !REMOTE.test(entry))
    .map((entry) => path.posix.normalize(path.posix.join(dir, entry)));
}

/** Whether a file is in a folder or below it, as Kustomize's load restrictor requires of the files a kustomization reads. */
export function isWithin(file: string, dir: string): boolean {
  return dir === '.' ? !file.startsWith('../') && file !== '..' : file.startsWith(`${dir}/`);
}
