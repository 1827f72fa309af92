import { EntryTarget, entryMatches, resourceKeyOf } from '../core/ignore-match';
import { apiGroupMeant } from '../core/kinds';
import { at, listAt, Manifest } from '../core/manifest';

/*
 * What an ignoreDifferences entry ignores, and which of those fields nobody edits by hand: shared by SA002 and SA003.
 */

/**
 * Whether an ignoreDifferences entry's group and kind match a manifest, as Argo CD matches them: by glob, a missing group
 * being the core group. Name and namespace are the caller's to match.
 */
export function matchesGroupKind(entry: Manifest, manifest: Manifest): boolean {
  return matchesDeclaredObject({ group: entry.group, kind: entry.kind }, manifest, '');
}

/**
 * Whether an ignoreDifferences entry matches a manifest Git declares, as Argo CD matches it
 * (util/argo/normalizers/diff_normalizer.go): group and kind by glob, and a name or namespace the entry gives exactly.
 * Argo CD compares the object's namespace as it sets it before the diff: none for a cluster-scoped kind, the
 * Application's destination namespace for a namespaced object that names none. A kind whose scope is not known here
 * counts as namespaced, and a name or namespace that is a template's placeholder matches any.
 */
function matchesDeclaredObject(entry: Manifest, manifest: Manifest, destinationNamespace: string): boolean {
  const target = targetOf(entry);
  return target !== undefined && entryMatches(target, resourceKeyOf(manifest, destinationNamespace));
}

/** What an entry matches objects by, as Argo CD reads it; undefined for an entry without a kind, which matches none. */
function targetOf(entry: Manifest): EntryTarget | undefined {
  if (typeof entry.kind !== 'string') {
    return undefined;
  }
  // A name or namespace that is a template's placeholder matches any, as one left out does.
  const exact = (wanted: unknown) => (typeof wanted !== 'string' || wanted.includes('{{') ? '' : wanted);
  return { group: typeof entry.group === 'string' ? entry.group : '', kind: entry.kind, name: exact(entry.name), namespace: exact(entry.namespace) };
}

/** The destination namespace of an Application, which Argo CD gives the namespaced objects that name none. */
function destinationNamespaceOf(application: Manifest): string {
  const namespace = at(application, 'spec', 'destination', 'namespace');
  return typeof namespace === 'string' ? namespace : '';
}

/** Which of an Application's manifests an ignoreDifferences entry applies to, and whether it applies to nothing Argo CD compares. */
export interface EntryReach {
  /** The manifests Git declares that the entry matches (group and kind by glob, a name and namespace it gives exactly). */
  readonly matching: readonly Manifest[];
  /**
   * Whether the entry silences nothing: its group is no API group (SA019 reports it), or the manifests are known to be
   * every object the app deploys (`complete`) and it matches none of them.
   */
  readonly inert: boolean;
}

/** What an entry of `application` reaches among `resources`, as SA002 and SA003 both judge it. */
export function reachOf(entry: Manifest, application: Manifest, resources: readonly Manifest[], complete: boolean | undefined): EntryReach {
  const namespace = destinationNamespaceOf(application);
  const target = targetOf(entry);
  const matching = target === undefined ? [] : resources.filter((m) => entryMatches(target, resourceKeyOf(m, namespace)));
  const known = complete === true && resources.length > 0;
  return { matching, inert: groupMeant(entry) !== undefined || (known && matching.length === 0) };
}

/**
 * What an entry's group should be when it can match no API group at all: Argo CD compares it with the object's group
 * as it is (the core group being `""`), so `core` or `v1` matches nothing, nor does an apiVersion (`apps/v1`) or a
 * group in capitals. The group meant, `""` for the core group; undefined when the group may match.
 */
export function groupMeant(entry: Manifest): string | undefined {
  return typeof entry.group === 'string' ? apiGroupMeant(entry.group) : undefined;
}

/** Kinds whose `caBundle` a controller injects (cert-manager's cainjector, or the operator that serves the webhook). */
const CA_BUNDLE_KINDS = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'CustomResourceDefinition', 'APIService'];

/**
 * Annotations tools and controllers write on the objects they touch: Argo CD's tracking id, kubectl's last-applied copy,
 * and the Deployment controller's revision.
 */
const TOOL_ANNOTATIONS = ['argocd.argoproj.io/tracking-id', 'kubectl.kubernetes.io/last-applied-configuration', 'deployment.kubernetes.io/revision'];

/**
 * The annotation key a path names on the object itself, in each spelling Argo CD accepts: a JSON pointer with `/` in
 * the key written `~1`, or jq with the key quoted in brackets (`.metadata.annotations["a/b"]`, also `.["a/b"]`) or after
 * the dot (`.metadata.annotations."a/b"`).
 */
function objectAnnotationKey(compact: string, jq: boolean): string | undefined {
  if (jq) {
    const key = /^\.metadata\.annotations(?:\.?\["([^"]+)"\]|\."([^"]+)"|\.([\w-]+))$/.exec(compact);
    return key ? key[1] ?? key[2] ?? key[3] : undefined;
  }
  const key = /^\/metadata\/annotations\/([^/]+)$/.exec(compact);
  return key ? key[1].replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/** Metadata only the API server writes (Git cannot set it): a sync never changes it. */
const SERVER_METADATA = ['generation', 'resourceVersion', 'uid', 'creationTimestamp', 'managedFields', 'selfLink'];

/** The fields an entry ignores, as written: JSON pointers and jq path expressions (manager names are not paths). */
export function ignoredPaths(entry: Manifest): { path: string; jq: boolean }[] {
  return [
    ...listAt(entry, 'jsonPointers').filter((p): p is string => typeof p === 'string').map((path) => ({ path, jq: false })),
    ...listAt(entry, 'jqPathExpressions').filter((p): p is string => typeof p === 'string').map((path) => ({ path, jq: true })),
  ];
}

/**
 * A value the API server, a controller or a client writes into a field that Git leaves out, which a sync changes
 * nothing by overwriting: the `divisor` of an env var's resourceFieldRef (defaulted to "0" or "1"), the tool and
 * controller annotations, the annotations a webhook marks its injections with, and the metadata only the API server
 * writes (`generation`, `resourceVersion`...).
 */
export function isDefaultingArtefact(path: string, jq: boolean): boolean {
  const compact = path.replace(/\s/g, '');
  if (isInjectionMarker(compact, jq)) {
    return true;
  }
  if (TOOL_ANNOTATIONS.includes(objectAnnotationKey(compact, jq) ?? '')) {
    return true;
  }
  if (jq) {
    return /\.resourceFieldRef\.divisor$/.test(compact) || SERVER_METADATA.some((field) => compact === `.metadata.${field}`);
  }
  return /\/resourceFieldRef\/divisor$/.test(compact) || SERVER_METADATA.some((field) => compact === `/metadata/${field}`);
}

/**
 * An annotation, of the object or of a template in it, whose key says that a webhook wrote it when it injected a
 * sidecar or an agent (`linkerd.io/injected-by`, `otel.injected-by`, `vault.hashicorp.com/agent-inject-status`):
 * written on admission of every apply, never by hand.
 */
function isInjectionMarker(compact: string, jq: boolean): boolean {
  const key = jq
    ? /\.annotations(?:\.?\["([^"]+)"\]|\."([^"]+)"|\.([\w-]+))$/.exec(compact)
    : /\/annotations\/([^/]+)$/.exec(compact);
  const name = key ? (key[1] ?? key[2] ?? key[3] ?? '').replace(/~1/g, '/') : '';
  return /(^|[./-])(injected-by|inject(ed|ion)?-status)$/.test(name);
}

/**
 * Fields fixed when the object is created: the API server refuses a change to them, so no human changes them in place
 * and a sync leaves them as they are (Git's value cannot be applied either). A PersistentVolumeClaim's spec but its
 * `resources` (the binder writes `volumeName`, admission the storage class), a StatefulSet's `volumeClaimTemplates`, a
 * Job's pod `template` and `selector` (the API server adds the job-name and controller-uid labels).
 */
const IMMUTABLE_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['PersistentVolumeClaim', ['spec.volumeName', 'spec.dataSource', 'spec.dataSourceRef', 'spec.storageClassName', 'spec.volumeMode', 'spec.accessModes', 'spec.selector']],
  ['StatefulSet', ['spec.volumeClaimTemplates', 'spec.serviceName', 'spec.selector', 'spec.podManagementPolicy']],
  ['Job', ['spec.template', 'spec.selector']],
]);

/** Whether a path (a JSON pointer, or a jq path) is `field` (dot-separated) or lies under it. */
function isUnder(compact: string, jq: boolean, field: string): boolean {
  const prefix = jq ? `.${field}` : `/${field.split('.').join('/')}`;
  if (!compact.startsWith(prefix)) {
    return false;
  }
  const next = compact.charAt(prefix.length);
  return next === '' || (jq ? next === '.' || next === '[' : next === '/');
}

/**
 * Whether a sync leaves the live value of an ignored field as it is, so that ignoring it without
 * RespectIgnoreDifferences loses nothing: the defaulting artefacts, `/status` of any kind (a sync does not write it),
 * the fields fixed at creation above, the remote reference fields external-secrets' CRD defaults, and a CRD's
 * `spec.preserveUnknownFields`, which the API server defaults to false and apiextensions.k8s.io/v1 refuses to change to true
 * (the schema's x-kubernetes-preserve-unknown-fields replaced it): no sync or human changes it.
 */
export function isLeftAloneBySync(kind: string, path: string, jq: boolean): boolean {
  const compact = path.replace(/\s/g, '');
  return isDefaultingArtefact(compact, jq) || isUnder(compact, jq, 'status')
    || (kind === 'CustomResourceDefinition' && isUnder(compact, jq, 'spec.preserveUnknownFields'))
    || (IMMUTABLE_FIELDS.get(kind) ?? []).some((field) => isUnder(compact, jq, field))
    || (EXTERNAL_SECRET_KINDS.includes(kind) && EXTERNAL_SECRET_DEFAULTS.test(compact));
}

/** The kinds of external-secrets.io that read values from a secret store. */
const EXTERNAL_SECRET_KINDS = ['ExternalSecret', 'ClusterExternalSecret'];

/**
 * The fields of a remote reference that external-secrets' CRD schema defaults on every object (`conversionStrategy`
 * Default, `decodingStrategy` None, `metadataPolicy` None, and from 2.3 to 2.6 `nullBytePolicy` Ignore), by pointer or
 * jq: how a value is read, which nobody sets by hand on the live object, and which Git leaves out where the defaults
 * are meant.
 */
const EXTERNAL_SECRET_DEFAULTS = /(?:remoteRef|extract|find)(?:\/|\.)(?:conversionStrategy|decodingStrategy|metadataPolicy|nullBytePolicy)$/;

/**
 * Whether one ignored path is a field no human changes on the live object, so that ignoring it on every object of the
 * entry's kind hides no human change: what a sync leaves alone (above; `/status` is written by its controller, and
 * Argo CD 3.0 and later leave it out of every diff), the `caBundle` of webhook configurations and APIServices, and a
 * CRD's conversion webhook `clientConfig` (a cert controller such as external-secrets' injects the CA and the service
 * it serves from).
 */
export function isControllerOwnedField(kind: string, path: string, jq: boolean): boolean {
  const compact = path.replace(/\s/g, '');
  if (isLeftAloneBySync(kind, compact, jq)) {
    return true;
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
