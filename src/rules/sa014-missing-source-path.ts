import { Severity } from './severity';
import { Rule, Violation } from './types';
import { describeObject, readSourcesOf } from '../core/manifest';
import { isUnfilledPath, repositoryDir, sourcePathRefusal } from '../core/source-paths';

/** A source of an Application that reads the audited repository names a folder Argo CD cannot find there. */
export const missingSourcePath: Rule = {
  id: 'SA014',
  name: 'missing-source-path',
  severity: Severity.ERROR,
  auditOnly: true,
  summary: 'A source.path of the audited repository does not exist there (or is absolute, or leaves the repository).',
  explanation:
    'Argo CD\'s repo server resolves source.path inside the checked-out revision before it renders anything '
    + '(util/app/path): a folder that is not there fails with "app path does not exist", an absolute path with "app path '
    + 'is absolute", one that climbs out with "app path outside root". The Application then shows a ComparisonError and '
    + 'syncs nothing: not the fix of 2 a.m., not the next release. It happens when a folder is renamed or moved and the '
    + 'Application is not, or when a path is typed by hand. A synth does not run this rule: the folder it names is the '
    + 'one it writes. The audit judges only sources whose repoURL is the audited repository (--repo-url, else the Git '
    + 'remote, else the repository URLs whose source paths the audited files hold), and only folders within the audited '
    + 'paths: an audit of apps/ alone says nothing of a workloads/ folder it did not read.',
  fix: 'Point source.path at the folder as it is in the repository, relative to its root (e.g. apps/payments), or move '
    + 'the manifests back to where the Application reads them.',
  check({ application, repository }) {
    if (!application || !repository) {
      return [];
    }
    const found: Violation[] = [];
    for (const { source, path: pointer } of readSourcesOf(application)) {
      if (typeof source.path !== 'string' || typeof source.repoURL !== 'string'
        || typeof source.chart === 'string' || isUnfilledPath(source.path) || !repository.isAudited(source.repoURL)) {
        continue;
      }
      const refusal = sourcePathRefusal(source.path);
      const dir = repositoryDir(source.path);
      // A folder outside the audited paths (an audit of apps/ alone) may well be there: nothing is said of it.
      if (refusal === undefined && (repository.hasDirectory(dir) || (repository.knowsDirectory && !repository.knowsDirectory(dir)))) {
        continue;
      }
      found.push({
        object: application,
        path: `${pointer}/path`,
        message: refusal !== undefined
          ? `${describeObject(application)} reads source.path ${JSON.stringify(source.path)}, which ${refusal}: Argo CD refuses it and syncs nothing; give a path relative to the repository root`
          : `${describeObject(application)} reads source.path ${JSON.stringify(source.path)}, which is not a folder of ${source.repoURL}: Argo CD reports "app path does not exist" and syncs nothing`,
        value: source.path,
      });
    }
    return found;
  },
};
