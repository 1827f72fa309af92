import { ignoredPaths, isControllerOwnedField, reachOf } from './ignored-fields';
import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isObject, listAt, Manifest } from '../core/manifest';
import { hasGlob } from '../core/names';

/**
 * Whether a path covers a whole top-level field or the whole object (`/`, `/data`, `/spec`, `/webhooks`; jq `.`,
 * `..`, `.spec`, or any recursive descent): such an entry hides every change a human makes there.
 */
export function isBroadIgnorePath(path: string, jq: boolean): boolean {
  const compact = path.replace(/\s/g, '');
  if (jq) {
    return compact.includes('..') || /^\.?[\w]*(\[\]\??)?$/.test(compact);
  }
  return compact === '' || /^\/[^/]*$/.test(compact);
}

/** An ignoreDifferences entry that matches more than one concrete resource. */
export const wildcardIgnore: Rule = {
  id: 'SA003',
  name: 'wildcard-or-unscoped-ignore',
  severity: Severity.WARNING,
  summary: 'An ignoreDifferences entry uses a glob group or kind, or names no resource, for fields a human may change.',
  explanation:
    'Argo CD matches group and kind by glob and treats a missing name as "every object of this kind". '
    + 'Such an entry silences the same field on resources nobody meant to cover, so a human\'s change to them '
    + 'is never reported or reverted; a broad path (/, /data, /spec, /webhooks, a jq "..") on every object of a kind '
    + 'hides nearly everything. Fields a controller owns on every object of the kind are the exception and are not '
    + 'reported: /status of any kind (its controller writes it; Argo CD 3.0 and later ignore it anyway), fields fixed when '
    + 'the object is created (a PersistentVolumeClaim\'s spec but its resources, a StatefulSet\'s volumeClaimTemplates, a '
    + 'Job\'s pod template and selector), a CRD\'s spec.preserveUnknownFields (defaulted by the API server, and kept false '
    + 'by apiextensions.k8s.io/v1), how an ExternalSecret\'s remote reference is read (conversionStrategy, '
    + 'decodingStrategy, metadataPolicy and nullBytePolicy, which external-secrets\' CRD defaults), the caBundle of webhook configurations and APIServices '
    + '(injected by cert-manager\'s cainjector or the webhook\'s operator), a CRD\'s conversion webhook clientConfig (a cert '
    + 'controller injects its CA and service), an env var\'s resourceFieldRef divisor (defaulted by the API server), the '
    + 'metadata only the API server writes (generation, resourceVersion...), the tracking-id, last-applied-configuration '
    + 'and deployment.kubernetes.io/revision annotations (as a pointer, or in jq with the key in brackets or quoted after '
    + 'the dot), and the annotations a webhook marks its injections with '
    + '(linkerd.io/injected-by, ...-inject-status). An entry of managedFieldsManagers alone hides no human change either: '
    + 'a field a person edits is owned by that person\'s client, not by the managers named. Nor does an entry that matches '
    + 'none of the objects the app deploys (by group and kind, and by the name or namespace it gives), when the audit knows '
    + 'them all (its sources are plain folders of the audited repository, or a rendering of it is given): Argo CD compares '
    + 'only those. An entry whose group is no API group ("core") matches nothing and is SA019\'s. A platform that writes other fields on every object of a kind '
    + '(AKS\'s admissions enforcer sets webhooks\' namespaceSelector) is a reasoned suppression of SA003 on the Application.',
  fix: 'Give the entry a concrete group (omit it for the core group), kind and name, and one entry per resource; '
    + 'narrow a broad path to the one field that is written outside Git.',
  check({ application, resources, complete }) {
    if (!application) {
      return [];
    }
    // Known to be every object the app deploys: an entry that matches none of them silences nothing Argo CD compares.
    // Nor does one whose group is no API group (SA019 reports it).
    const inert = (entry: Manifest) => reachOf(entry, application, resources, complete).inert;
    const found: Violation[] = [];
    listAt(application, 'spec', 'ignoreDifferences').forEach((entry, i) => {
      const path = `/spec/ignoreDifferences/${i}`;
      if (!isObject(entry)) {
        found.push({ object: application, path, message: 'the ignoreDifferences entry is not an object', value: entry });
        return;
      }
      if (inert(entry)) {
        return;
      }
      const kind = typeof entry.kind === 'string' ? entry.kind : '';
      const paths = ignoredPaths(entry);
      // Only fields the named managers own are ignored: a human's edit is owned by the human's client, and shows.
      if (paths.length === 0 && listAt(entry, 'managedFieldsManagers').length > 0) {
        return;
      }
      // A glob or missing kind may be any kind: only what no human changes on any kind (/status) is exempt then.
      const concrete = kind !== '' && !hasGlob(kind) ? kind : '';
      if (paths.length > 0 && paths.every((p) => isControllerOwnedField(concrete, p.path, p.jq))) {
        return;
      }
      // The broad path named is one that hides human changes: an Application entry's /status beside /operation names /operation.
      const broad = paths.find((p) => isBroadIgnorePath(p.path, p.jq) && !isControllerOwnedField(concrete, p.path, p.jq));
      const what = broad ? `, and it ignores all of ${JSON.stringify(broad.path)}` : '';
      for (const field of ['group', 'kind']) {
        const value = entry[field];
        if (typeof value === 'string' && hasGlob(value)) {
          found.push({ object: application, path: `${path}/${field}`, message: `${field} ${JSON.stringify(value)} is a glob and matches more than one kind of resource${what}`, value });
        }
      }
      if (kind === '') {
        found.push({ object: application, path: `${path}/kind`, message: 'the entry names no kind', value: entry.kind });
      }
      if (typeof entry.name !== 'string' || entry.name.length === 0) {
        found.push({ object: application, path: `${path}/name`, message: `the entry for kind ${JSON.stringify(entry.kind ?? '')} names no object, so it applies to every one${what}`, value: entry.name });
      }
    });
    return found;
  },
};
