import { ignoredPaths, isLeftAloneBySync } from './ignored-fields';
import { Severity } from './severity';
import { Rule } from './types';
import { isObject, listAt, syncOptionsOf } from '../core/manifest';
import { hasGlob } from '../core/names';

/** ignoreDifferences without RespectIgnoreDifferences=true. */
export const ignoreWithoutRespect: Rule = {
  id: 'SA002',
  name: 'ignore-without-respect',
  severity: Severity.ERROR,
  summary: 'ignoreDifferences is set but the RespectIgnoreDifferences=true sync option is not.',
  explanation:
    'ignoreDifferences alone only changes the diff. When the app syncs for any other reason, Argo CD still '
    + 'applies the Git value of the ignored field, so an HPA\'s replica count or an injected sidecar is reverted '
    + '(argo-cd #6520, #7820). RespectIgnoreDifferences=true (Argo CD 2.3+) copies the live values of ignored '
    + 'fields into the object before applying it. Entries that ignore only what a sync leaves as it is lose nothing to it '
    + 'and are not reported: values the API server, a controller or a client fills in (an env var\'s resourceFieldRef divisor, '
    + 'metadata.generation, resourceVersion and the like, the tracking-id, last-applied and deployment.kubernetes.io/revision '
    + 'annotations, the annotations a webhook marks its injections with, how an ExternalSecret\'s remote reference is read), '
    + '/status, and fields fixed when the object is created (a '
    + 'PersistentVolumeClaim\'s spec but its resources, a StatefulSet\'s volumeClaimTemplates, a Job\'s pod template).',
  fix: 'Add "RespectIgnoreDifferences=true" to spec.syncPolicy.syncOptions. It keeps the live value of every ignored field of '
    + 'an object that exists, so a change Git makes to such a field no longer lands there: ignore only fields that Git leaves '
    + 'to another controller (an HPA\'s replicas), and narrow an entry that also covers fields Git declares.',
  check({ application }) {
    // Entries that ignore only what a sync leaves alone (a divisor the API server fills in, status, immutable fields) lose nothing to it.
    const entries = listAt(application, 'spec', 'ignoreDifferences').filter((e) => !isObject(e)
      || listAt(e, 'managedFieldsManagers').length > 0 || ignoredPaths(e).length === 0 || !leftAlone(e));
    if (!application || entries.length === 0) {
      return [];
    }
    if (syncOptionsOf(application).includes('RespectIgnoreDifferences=true')) {
      return [];
    }
    return [{
      object: application,
      path: '/spec/syncPolicy/syncOptions',
      message: 'ignoreDifferences hides fields from the diff, but a sync still overwrites them without RespectIgnoreDifferences=true',
      value: syncOptionsOf(application),
    }];
  },
};

/** Whether every field an entry ignores is one a sync leaves as it is, on the kind it names (a glob kind may be any). */
function leftAlone(entry: Record<string, unknown>): boolean {
  const kind = typeof entry.kind === 'string' && !hasGlob(entry.kind) ? entry.kind : '';
  return ignoredPaths(entry).every((p) => isLeftAloneBySync(kind, p.path, p.jq));
}
