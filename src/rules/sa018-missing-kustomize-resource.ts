import * as path from 'path';
import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isObject, listAt, Manifest } from '../core/manifest';

/** Kustomize fields whose entries are files or folders Kustomize reads as written. */
const PATH_FIELDS = ['resources', 'bases', 'components', 'crds'];
/** Kustomize fields whose entries name patch files (a bare name, or `path:` of an entry). */
const PATCH_FIELDS = ['patches', 'patchesStrategicMerge', 'patchesJson6902'];
/** A remote base or resource (a URL, or host/org/repo?ref=), which is not in the repository. */
const REMOTE = /:\/\/|\?ref=|^github\.com\//;

/** A kustomization in the audited repository lists a file or folder that is not there. */
export const missingKustomizeResource: Rule = {
  id: 'SA018',
  name: 'missing-kustomize-resource',
  severity: Severity.ERROR,
  auditOnly: true,
  summary: 'A kustomization lists a resource, base, component, CRD or patch file that is not in the repository.',
  explanation:
    'Argo CD renders a folder that holds a kustomization file with kustomize build. An entry under resources, bases, '
    + 'components or crds, or a patch file, that names a file or folder that is not there makes the build fail '
    + '("accumulating resources: ... no such file or directory"): every Application that renders the folder shows a '
    + 'ComparisonError and syncs nothing, not the fix of 2 a.m., not the next release. It happens when a file is renamed '
    + 'or deleted and the kustomization is not. Remote entries (URLs, ?ref=) are not checked, nor entries that leave the '
    + 'repository or lie outside the audited paths. A synth does not run this rule: it writes no kustomizations.',
  fix: 'Point the entry at the file or folder as it is, relative to the kustomization, or remove it.',
  check({ resources, repository }) {
    if (!repository?.folderOf || !repository.hasFile) {
      return [];
    }
    const found: Violation[] = [];
    for (const kustomization of resources) {
      const dir = kustomization.kind === 'Kustomization' ? repository.folderOf(kustomization) : undefined;
      if (dir === undefined) {
        continue;
      }
      for (const { entry, pointer } of listedPaths(kustomization)) {
        const target = path.posix.normalize(path.posix.join(dir, entry)).replace(/\/+$/, '') || '.';
        // Outside the repository, or outside the audited paths: not known to be missing.
        if (REMOTE.test(entry) || path.posix.isAbsolute(entry) || target === '..' || target.startsWith('../')
          || (repository.knowsDirectory && !repository.knowsDirectory(path.posix.dirname(target)))) {
          continue;
        }
        if (repository.hasFile(target) || repository.hasDirectory(target)) {
          continue;
        }
        found.push({
          object: kustomization,
          path: pointer,
          message: `the kustomization lists ${JSON.stringify(entry)}, which is not a file or folder of the repository: kustomize build `
            + 'fails, and every Application that renders this folder shows a ComparisonError and syncs nothing',
          value: entry,
        });
      }
    }
    return found;
  },
};

/** The paths a kustomization names, with the pointer of each. */
function listedPaths(kustomization: Manifest): { entry: string; pointer: string }[] {
  const listed: { entry: string; pointer: string }[] = [];
  for (const field of PATH_FIELDS) {
    listAt(kustomization, field).forEach((entry, i) => {
      if (typeof entry === 'string' && entry.trim() !== '') {
        listed.push({ entry, pointer: `/${field}/${i}` });
      }
    });
  }
  for (const field of PATCH_FIELDS) {
    listAt(kustomization, field).forEach((entry, i) => {
      // A patch written inline (several lines, or `key: value`) is no file.
      if (typeof entry === 'string' && !entry.includes('\n') && !entry.includes(': ') && entry.trim() !== '') {
        listed.push({ entry, pointer: `/${field}/${i}` });
      } else if (isObject(entry) && typeof entry.path === 'string' && entry.path.trim() !== '') {
        listed.push({ entry: entry.path, pointer: `/${field}/${i}/path` });
      }
    });
  }
  return listed;
}
