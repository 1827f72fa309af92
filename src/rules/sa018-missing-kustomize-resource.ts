import * as path from 'path';
import { Severity } from './severity';
import { Rule, Violation } from './types';
import { kustomizationPaths } from '../core/kustomization';
import { isUnfilledPath } from '../core/source-paths';

/** What a file generated before the build is written from is named: its name and one of these. */
const TEMPLATE_SUFFIXES = ['.tpl', '.tmpl', '.template', '_template', '-template', '.j2', '.gotmpl'];

/**
 * Where a template of a file would be (`ssh-key.yaml.tpl` beside it or in `templates/`): a bootstrap script that fills
 * it in writes the file before `kustomize build` runs.
 */
function generatedFrom(target: string): string[] {
  const dir = path.posix.dirname(target);
  const name = path.posix.basename(target);
  return TEMPLATE_SUFFIXES.flatMap((suffix) => [`${target}${suffix}`, path.posix.join(dir, 'templates', `${name}${suffix}`)]);
}

/**
 * Whether an entry is left to be filled in before the build: a template expression (`${{ values.name }}` of a Backstage
 * scaffolder skeleton, `{{ }}`), a shell or envsubst variable (`${NAME}`), a placeholder such as `<CLUSTER_NAME>`.
 */
function isUnfilledEntry(entry: string): boolean {
  return isUnfilledPath(entry) || /\$\{[^}]*\}/.test(entry);
}

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
    + 'repository or lie outside the audited paths, nor a file with a template beside it or in templates/ (ssh-key.yaml.tpl, '
    + '.tmpl, .template, _template, -template, .j2, .gotmpl), which a bootstrap script fills in before the build, nor an entry '
    + 'that is itself a template (${{ values.name }}.yaml of a Backstage scaffolder skeleton, {{ }}, ${NAME}, <NAME>), nor a file '
    + 'a kustomization beside a Chart.yaml names in its own folder, which a plugin renders from the chart first (helm template > '
    + 'all.yaml, then kustomize build). A synth does '
    + 'not run this rule: it writes no kustomizations.',
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
      for (const { entry, pointer } of kustomizationPaths(kustomization)) {
        const target = path.posix.normalize(path.posix.join(dir, entry)).replace(/\/+$/, '') || '.';
        // Outside the repository, or outside the audited paths: not known to be missing.
        // Left to a tool that fills it in first (a Backstage skeleton, a bootstrap script): not known to be missing.
        if (isUnfilledEntry(entry) || path.posix.isAbsolute(entry) || target === '..' || target.startsWith('../')
          || (repository.knowsDirectory && !repository.knowsDirectory(path.posix.dirname(target)))) {
          continue;
        }
        if (repository.hasFile(target) || repository.hasDirectory(target) || generatedFrom(target).some((t) => repository.hasFile!(t))) {
          continue;
        }
        // A kustomization beside a chart's Chart.yaml: a plugin renders the chart into the files it names (helm template
        // > all.yaml) before kustomize build, so a file missing there is made first.
        if (repository.hasFile(path.posix.join(dir, 'Chart.yaml')) && path.posix.dirname(target) === dir) {
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
