import { EntryReach, ignoredPaths, isControllerOwnedField, reachOf } from './ignored-fields';
import { Severity } from './severity';
import { Rule } from './types';
import { at, isObject, listAt, Manifest, syncOptionsOf } from '../core/manifest';
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
    + 'fields into the object before applying it. A sync writes only the fields Git declares, so entries that can cover '
    + 'none lose nothing to it and are not reported: entries of managedFieldsManagers alone (the fields other controllers '
    + 'own, which Git leaves to them), entries that ignore only what a sync leaves as it is or a controller writes '
    + '(values the API server, a controller or a client fills in: an env var\'s resourceFieldRef divisor, '
    + 'metadata.generation, resourceVersion and the like, the tracking-id, last-applied and deployment.kubernetes.io/revision '
    + 'annotations (as a pointer, or in jq with the key in brackets or quoted after the dot), the annotations a webhook marks its injections with, how an ExternalSecret\'s remote reference is read; '
    + '/status; a CRD\'s spec.preserveUnknownFields, which the API server defaults and apiextensions.k8s.io/v1 keeps false; '
    + 'fields fixed when the object is created: a PersistentVolumeClaim\'s spec but its resources, a StatefulSet\'s '
    + 'volumeClaimTemplates, a Job\'s pod template; the caBundle a cert controller injects into webhook configurations, '
    + 'APIServices and CRD conversion webhooks, unless a manifest of the app declares it), and, when the audit knows every '
    + 'manifest the app deploys (its sources are plain folders of the audited repository, or a rendering of it is given), '
    + 'entries that match none of them (Argo CD matches group and kind by glob, a name and namespace exactly): objects a '
    + 'controller creates, such as Crossplane\'s webhook configurations, a CSI driver\'s volumes or a Secret an operator '
    + 'writes. An entry whose group is no API group ("core", "v1", an apiVersion) matches nothing at all and is SA019\'s.',
  fix: 'Add "RespectIgnoreDifferences=true" to spec.syncPolicy.syncOptions. It keeps the live value of every ignored field of '
    + 'an object that exists, so a change Git makes to such a field no longer lands there: ignore only fields that Git leaves '
    + 'to another controller (an HPA\'s replicas), and narrow an entry that also covers fields Git declares.',
  check({ application, resources, complete }) {
    // With the option set, or no entry, there is nothing to judge, and the entries are not matched against the resources.
    if (!application || syncOptionsOf(application).includes('RespectIgnoreDifferences=true')
      || listAt(application, 'spec', 'ignoreDifferences').length === 0) {
      return [];
    }
    // Only when the audit found them all can an entry of a kind none of them has be known to match nothing in Git.
    const entries = listAt(application, 'spec', 'ignoreDifferences')
      .filter((e) => !isObject(e) || mayCoverGitFields(e, reachOf(e, application, resources, complete)));
    if (entries.length === 0) {
      return [];
    }
    // A sync policy that is a template's placeholder as a whole (`{{ }}`) is where the option would be, and is not judged.
    const syncPolicy = at(application, 'spec', 'syncPolicy');
    return [{
      object: application,
      path: syncPolicy === undefined || isObject(syncPolicy) ? '/spec/syncPolicy/syncOptions' : '/spec/syncPolicy',
      message: 'ignoreDifferences hides fields from the diff, but a sync still overwrites them without RespectIgnoreDifferences=true',
      value: syncOptionsOf(application),
    }];
  },
};

/**
 * Whether an entry may ignore a field Git declares, which a sync would then overwrite: not when it names managers
 * only, nor when its group is no API group (`core`), nor when every path it ignores is one a sync leaves alone or a
 * controller writes (a caBundle counts when a manifest it matches declares one), nor when the app's manifests are all
 * known and it matches none of them (see {@link reachOf}).
 */
function mayCoverGitFields(entry: Manifest, { matching, inert }: EntryReach): boolean {
  const paths = ignoredPaths(entry);
  if (paths.length === 0) {
    return listAt(entry, 'managedFieldsManagers').length === 0;
  }
  if (inert) {
    return false;
  }
  // A glob or missing kind may be any kind: only what no sync writes on any kind (/status) is exempt then.
  const kind = typeof entry.kind === 'string' && !hasGlob(entry.kind) ? entry.kind : '';
  return paths.some((p) => !isControllerOwnedField(kind, p.path, p.jq) || matching.some((m) => declaresKey(m, lastKey(p.path))));
}

/** The last key a JSON pointer or jq path names (`caBundle`). */
function lastKey(path: string): string {
  return /([\w-]+)\W*$/.exec(path)?.[1] ?? '';
}

/** Whether a key is written anywhere in a value. */
function declaresKey(value: unknown, key: string, depth = 0): boolean {
  if (Array.isArray(value)) {
    return depth < 50 && value.some((v) => declaresKey(v, key, depth + 1));
  }
  return isObject(value) && depth < 50 && Object.entries(value).some(([k, v]) => k === key || declaresKey(v, key, depth + 1));
}

