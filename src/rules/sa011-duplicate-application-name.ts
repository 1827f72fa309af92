import { Severity } from './severity';
import { ApplicationSite, Rule, Violation } from './types';
import { describeObject, isApplication, stringAt } from '../core/manifest';
import { compareStrings } from '../core/order';

/** The folder of a repository-relative file, `.` for the root. */
function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '.' : file.slice(0, slash);
}

/**
 * Two Applications of one name in one namespace, written in the same folder: whatever applies that folder (an
 * app-of-apps parent, `kubectl apply -f`) applies both, and the later replaces the earlier. Needs every
 * Application of an audit at once, so it runs through `checkAcross`, never at synth.
 */
export const duplicateApplicationName: Rule = {
  id: 'SA011',
  name: 'duplicate-application-name',
  severity: Severity.ERROR,
  auditOnly: true,
  summary: 'Two Applications of the same name and namespace are written in the same folder, so one replaces the other.',
  explanation:
    'An Application is identified by its namespace and name. Two written in one folder are applied together by whatever '
    + 'applies that folder: an app-of-apps parent reports the object as repeated (RepeatedResourceWarning) and applies only '
    + 'one of them, kubectl keeps the last; either way one app silently never exists, or flips between two specs. '
    + 'The usual cause is a copied file whose name was not changed. Applications of the same name in different folders '
    + 'are not reported: that is the common layout of one folder per cluster or environment, each applied by its own '
    + 'Argo CD. An Application that names no namespace is compared only with others that name none.',
  fix: 'Give each Application its own metadata.name (e.g. suffix the environment or cluster), or delete the stale copy.',
  check() {
    return [];
  },
  checkAcross(applications: readonly ApplicationSite[]) {
    const first = new Map<string, ApplicationSite>();
    const found: Violation[] = [];
    // Files in order, and each file's Applications in the order given (document order): the first written is kept.
    const ordered = applications
      .map((site, index) => ({ site, index }))
      .filter(({ site }) => isApplication(site.application))
      .sort((a, b) => compareStrings(a.site.file, b.site.file) || a.index - b.index);
    for (const { site } of ordered) {
      const name = stringAt(site.application, 'metadata', 'name');
      if (name === undefined || name === '') {
        continue;
      }
      const key = JSON.stringify([folderOf(site.file), stringAt(site.application, 'metadata', 'namespace') ?? '', name]);
      const earlier = first.get(key);
      if (!earlier) {
        first.set(key, site);
        continue;
      }
      found.push({
        object: site.application,
        path: '/metadata/name',
        message: `${describeObject(site.application)} is also written ${earlier.file === site.file ? 'earlier in this file' : `in ${earlier.file}`}, `
          + 'in the same folder: applied together, one replaces the other',
        value: name,
      });
    }
    return found;
  },
};
