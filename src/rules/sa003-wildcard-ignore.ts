import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isObject, listAt, Manifest } from '../core/manifest';
import { hasGlob } from '../core/names';

/** Kinds whose `caBundle` a controller injects (cert-manager's cainjector, or the operator that serves the webhook). */
const CA_BUNDLE_KINDS = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'CustomResourceDefinition', 'APIService'];

/**
 * Whether one ignored path is a narrow field a controller owns on every object of the entry's kind, so that
 * ignoring it on all of them hides no human change: an Application's `/status` (Argo CD writes it), and the
 * `caBundle` of webhook configurations, CRD conversion webhooks and APIServices.
 */
function isControllerOwnedField(kind: string, path: string, jq: boolean): boolean {
  const compact = path.replace(/\s/g, '');
  if (kind === 'Application') {
    return jq ? compact === '.status' : compact === '/status';
  }
  if (CA_BUNDLE_KINDS.includes(kind)) {
    return jq ? /^\.[\w.[\]?]*\.caBundle$/.test(compact) : /^\/[\w/-]*\/caBundle$/.test(compact);
  }
  return false;
}

/** The fields an entry ignores, as written: JSON pointers and jq path expressions (manager names are not paths). */
function ignoredPaths(entry: Manifest): { path: string; jq: boolean }[] {
  return [
    ...listAt(entry, 'jsonPointers').filter((p): p is string => typeof p === 'string').map((path) => ({ path, jq: false })),
    ...listAt(entry, 'jqPathExpressions').filter((p): p is string => typeof p === 'string').map((path) => ({ path, jq: true })),
  ];
}

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
    + 'reported: the /status of an Application (Argo CD writes it) and the caBundle of webhook configurations, CRD '
    + 'conversion webhooks and APIServices (injected by cert-manager\'s cainjector or the webhook\'s operator).',
  fix: 'Give the entry a concrete group (omit it for the core group), kind and name, and one entry per resource; '
    + 'narrow a broad path to the one field that is written outside Git.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    listAt(application, 'spec', 'ignoreDifferences').forEach((entry, i) => {
      const path = `/spec/ignoreDifferences/${i}`;
      if (!isObject(entry)) {
        found.push({ object: application, path, message: 'the ignoreDifferences entry is not an object', value: entry });
        return;
      }
      const kind = typeof entry.kind === 'string' ? entry.kind : '';
      const paths = ignoredPaths(entry);
      if (kind !== '' && !hasGlob(kind) && paths.length > 0 && paths.every((p) => isControllerOwnedField(kind, p.path, p.jq))) {
        return;
      }
      const broad = paths.find((p) => isBroadIgnorePath(p.path, p.jq));
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
