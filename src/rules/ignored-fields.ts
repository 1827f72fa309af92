import { listAt, Manifest } from '../core/manifest';

/*
 * What an ignoreDifferences entry ignores, and which of those fields nobody edits by hand: shared by SA002 and SA003.
 */

/** Kinds whose `caBundle` a controller injects (cert-manager's cainjector, or the operator that serves the webhook). */
const CA_BUNDLE_KINDS = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'CustomResourceDefinition', 'APIService'];

/** Annotations tools write on every object they touch: Argo CD's tracking id and kubectl's last-applied copy. */
const TOOL_ANNOTATIONS = ['argocd.argoproj.io~1tracking-id', 'kubectl.kubernetes.io~1last-applied-configuration'];

/** The fields an entry ignores, as written: JSON pointers and jq path expressions (manager names are not paths). */
export function ignoredPaths(entry: Manifest): { path: string; jq: boolean }[] {
  return [
    ...listAt(entry, 'jsonPointers').filter((p): p is string => typeof p === 'string').map((path) => ({ path, jq: false })),
    ...listAt(entry, 'jqPathExpressions').filter((p): p is string => typeof p === 'string').map((path) => ({ path, jq: true })),
  ];
}

/**
 * A value the API server or a client writes into a field that Git leaves out, which a sync changes nothing by
 * overwriting: the `divisor` of an env var's resourceFieldRef (defaulted to "0" or "1"), and the tool annotations.
 */
export function isDefaultingArtefact(path: string, jq: boolean): boolean {
  const compact = path.replace(/\s/g, '');
  if (jq) {
    return /\.resourceFieldRef\.divisor$/.test(compact)
      || TOOL_ANNOTATIONS.some((a) => compact === `.metadata.annotations["${a.replace('~1', '/')}"]`);
  }
  return /\/resourceFieldRef\/divisor$/.test(compact) || TOOL_ANNOTATIONS.some((a) => compact === `/metadata/annotations/${a}`);
}

/**
 * Whether one ignored path is a narrow field a controller or a tool owns on every object of the entry's kind, so that
 * ignoring it on all of them hides no human change: an Application's `/status` (Argo CD writes it), the `caBundle` of
 * webhook configurations and APIServices, a CRD's conversion webhook `clientConfig` (a cert controller such as
 * external-secrets' injects the CA and the service it serves from), and the defaulting artefacts above.
 */
export function isControllerOwnedField(kind: string, path: string, jq: boolean): boolean {
  const compact = path.replace(/\s/g, '');
  if (isDefaultingArtefact(compact, jq)) {
    return true;
  }
  if (kind === 'Application') {
    return jq ? compact === '.status' : compact === '/status';
  }
  if (kind === 'CustomResourceDefinition'
    && (jq ? /^\.spec\.conversion\.webhook\.clientConfig(\.[\w]+)*$/.test(compact) : /^\/spec\/conversion\/webhook\/clientConfig(\/[\w]+)*$/.test(compact))) {
    return true;
  }
  if (CA_BUNDLE_KINDS.includes(kind)) {
    return jq ? /^\.[\w.[\]?]*\.caBundle$/.test(compact) : /^\/[\w/-]*\/caBundle$/.test(compact);
  }
  return false;
}
