import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, describeObject, listAt, Manifest, readSourcesOf, stringAt } from '../core/manifest';
import { isBuildEnvironmentVariable, isRefName, valueFileRef } from '../core/source-paths';

/** A Helm value file `$<ref>/<path>` that names no ref source Argo CD can read, or a ref Argo CD refuses. */
export const unresolvedValueFileRef: Rule = {
  id: 'SA015',
  name: 'unresolved-value-file-ref',
  severity: Severity.ERROR,
  summary: 'A Helm value file names a ref source ($<ref>/...) that the Application does not have, or a ref Argo CD refuses.',
  explanation:
    'In an Application with spec.sources, a Helm value file that starts with "$" is read from the source whose ref '
    + 'field is the text up to the first "/" ("$values/apps/api/values.yaml" reads apps/api/values.yaml of the source '
    + 'with ref: values). Argo CD\'s repo server fails the render when no source has that ref ("source referenced '
    + '"$values", which is not one of the available sources") or when that source is a Helm chart, and refuses the whole '
    + 'Application when a ref is given twice or holds characters other than letters, digits, "_" and "-" (util/argo '
    + 'GetRefSources): the Application shows a ComparisonError and syncs nothing, the next release included. In an '
    + 'Application with only spec.source, no ref exists at all: "$values" is substituted from the build environment, '
    + 'where it is empty, so the chart reads "/apps/api/values.yaml" of its own repository (util/io/path), not the file '
    + 'meant. It happens when a ref source is renamed '
    + 'or dropped, or when spec.sources is turned back into spec.source.',
  fix: 'Add the ref source to spec.sources (repoURL of the Git repository holding the value files, an exact '
    + 'targetRevision, ref: <name>, no path or chart), or correct the name after "$". With cdk8s-safe-argocd, give '
    + 'ExternalSource.gitRef(<name>, { repoUrl }) in the SafeApplication\'s additionalSources.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const sources = readSourcesOf(application);
    const multi = listAt(application, 'spec', 'sources').length > 0;
    const found: Violation[] = [];
    const refs = new Map<string, Manifest>();
    for (const { source, path } of sources) {
      const ref = at(source, 'ref');
      if (ref === undefined || ref === '') {
        continue;
      }
      if (typeof ref !== 'string' || !isRefName(ref)) {
        found.push(violation(application, `${path}/ref`, `ref ${JSON.stringify(ref)} holds characters Argo CD refuses (letters, digits, "_" and "-" only): it refuses the whole Application`, ref));
      } else if (refs.has(ref)) {
        found.push(violation(application, `${path}/ref`, `ref ${JSON.stringify(ref)} is given to an earlier source too: Argo CD refuses the whole Application`, ref));
      } else {
        refs.set(ref, source);
      }
    }
    for (const { source, path } of sources) {
      listAt(source, 'helm', 'valueFiles').forEach((file, i) => {
        const ref = typeof file === 'string' ? valueFileRef(file) : undefined;
        if (typeof file !== 'string' || ref === undefined) {
          return;
        }
        const pointer = `${path}/helm/valueFiles/${i}`;
        if (!multi) {
          if (!isBuildEnvironmentVariable(ref)) {
            found.push(violation(application, pointer, `value file ${JSON.stringify(file)} names ref "${ref}", but ${describeObject(application)} has only spec.source and so no ref source: `
              + `Argo CD substitutes "$${ref}" from the build environment, where it is empty, and reads ${JSON.stringify(file.slice(ref.length + 1) || '/')} `
              + 'from the root of this source\'s own repository instead', file));
          }
          return;
        }
        const target = refs.get(ref);
        if (target === undefined && isBuildEnvironmentVariable(ref)) {
          // Names no ref: the repo server substitutes the build environment's variable instead.
          return;
        }
        if (target === undefined) {
          const known = [...refs.keys()].map((k) => JSON.stringify(k));
          found.push(violation(application, pointer, `value file ${JSON.stringify(file)} names ref "${ref}", but ${known.length === 0 ? 'no source has a ref' : `the refs are ${known.join(', ')}`}: `
            + 'Argo CD fails to render the Application and syncs nothing', file));
        } else if (stringAt(target, 'chart') !== undefined) {
          found.push(violation(application, pointer, `value file ${JSON.stringify(file)} names ref "${ref}", a Helm chart source: Argo CD reads value files from Git ref sources only and fails the render`, file));
        }
      });
    }
    return found;
  },
};

function violation(application: Manifest, path: string, message: string, value: unknown): Violation {
  return { object: application, path, message, value };
}
