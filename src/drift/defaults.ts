import { clone, hasOwn, isMap, Json, JsonMap, put, setAt, valueAt } from './json';
import { groupOf } from '../core/kinds';

/**
 * Defaults the API server gives fields that a three-way merge deleted (they were in last-applied and
 * left Git). Only the fields that matter to the incidents this library prevents are modelled; any other
 * deleted field is shown as absent.
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/
 */
const DEFAULTS: Record<string, Record<string, Json>> = {
  'apps/Deployment': { '/spec/replicas': 1, '/spec/revisionHistoryLimit': 10, '/spec/progressDeadlineSeconds': 600 },
  'apps/StatefulSet': { '/spec/replicas': 1, '/spec/revisionHistoryLimit': 10, '/spec/podManagementPolicy': 'OrderedReady' },
  'apps/ReplicaSet': { '/spec/replicas': 1 },
  'argoproj.io/Rollout': { '/spec/replicas': 1 },
  'autoscaling/HorizontalPodAutoscaler': { '/spec/minReplicas': 1 },
  'batch/Job': { '/spec/backoffLimit': 6 },
  '/Service': { '/spec/type': 'ClusterIP', '/spec/sessionAffinity': 'None' },
};

/** Puts back the API server's default for every deleted field that has one. */
export function applyDeletionDefaults(obj: Json, deleted: readonly string[][]): Json {
  if (!isMap(obj)) {
    return obj;
  }
  const table = DEFAULTS[`${groupOf(String(obj.apiVersion ?? ''))}/${String(obj.kind ?? '')}`] ?? {};
  // Any other deleted field that the API server defaults comes back with its default.
  const defaulted = deleted.length > 0 ? applyApiDefaults(clone(obj)) : obj;
  for (const keys of deleted) {
    const pointer = `/${keys.join('/')}`;
    if (valueAt(obj, keys) !== undefined || /^\d+$/.test(keys[keys.length - 1] ?? '')) {
      continue;
    }
    const value = hasOwn(table, pointer) ? table[pointer] : valueAt(defaulted, keys);
    if (value !== undefined) {
      setAt(obj as JsonMap, keys, clone(value));
    }
  }
  return obj;
}

/** Gives every modelled field that is absent its API default, as the API server does on create. */
export function applyDeletionDefaultsForAbsent(obj: Json): Json {
  if (!isMap(obj)) {
    return obj;
  }
  const table = DEFAULTS[`${groupOf(String(obj.apiVersion ?? ''))}/${String(obj.kind ?? '')}`] ?? {};
  return applyDeletionDefaults(obj, Object.keys(table).map((p) => p.slice(1).split('/')));
}

/** Sets `key` when the map lacks it. */
function def(map: JsonMap, key: string, value: Json): void {
  if (!hasOwn(map, key) || map[key] === null) {
    put(map, key, value);
  }
}

function child(map: JsonMap, key: string): JsonMap | undefined {
  const value = hasOwn(map, key) ? map[key] : undefined;
  return isMap(value) ? value : undefined;
}

function items(map: JsonMap | undefined, key: string): JsonMap[] {
  const value = map && hasOwn(map, key) ? map[key] : undefined;
  return Array.isArray(value) ? value.filter(isMap) : [];
}

/** The pull policy the API server picks: Always for `:latest` or no tag, IfNotPresent otherwise (or with a digest). */
function pullPolicyFor(image: Json): string {
  const text = typeof image === 'string' ? image : '';
  if (text.includes('@')) {
    return 'IfNotPresent';
  }
  const lastPart = text.slice(text.lastIndexOf('/') + 1);
  const colon = lastPart.lastIndexOf(':');
  return colon === -1 || lastPart.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: JsonMap | undefined): void {
  if (!probe) {
    return;
  }
  def(probe, 'timeoutSeconds', 1);
  def(probe, 'periodSeconds', 10);
  def(probe, 'successThreshold', 1);
  def(probe, 'failureThreshold', 3);
  const httpGet = child(probe, 'httpGet');
  if (httpGet) {
    def(httpGet, 'scheme', 'HTTP');
  }
}

function defaultContainer(container: JsonMap): void {
  def(container, 'terminationMessagePath', '/dev/termination-log');
  def(container, 'terminationMessagePolicy', 'File');
  if (hasOwn(container, 'image')) {
    def(container, 'imagePullPolicy', pullPolicyFor(container.image));
  }
  for (const port of items(container, 'ports')) {
    def(port, 'protocol', 'TCP');
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    defaultProbe(child(container, probe));
  }
  for (const env of items(container, 'env')) {
    const fieldRef = child(child(env, 'valueFrom') ?? {}, 'fieldRef');
    if (fieldRef) {
      def(fieldRef, 'apiVersion', 'v1');
    }
  }
}

function defaultVolume(volume: JsonMap): void {
  for (const source of ['configMap', 'secret', 'downwardAPI', 'projected']) {
    const s = child(volume, source);
    if (s) {
      def(s, 'defaultMode', 420);
    }
  }
  const hostPath = child(volume, 'hostPath');
  if (hostPath) {
    def(hostPath, 'type', '');
  }
}

/** SetDefaults_PodSpec and the defaults of what it holds (k8s.io/kubernetes pkg/apis/core/v1/defaults.go). */
function defaultPodSpec(spec: JsonMap | undefined): void {
  if (!spec) {
    return;
  }
  def(spec, 'dnsPolicy', 'ClusterFirst');
  def(spec, 'restartPolicy', 'Always');
  def(spec, 'securityContext', {});
  def(spec, 'terminationGracePeriodSeconds', 30);
  def(spec, 'schedulerName', 'default-scheduler');
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    items(spec, list).forEach(defaultContainer);
  }
  items(spec, 'volumes').forEach(defaultVolume);
}

function podTemplateSpec(spec: JsonMap | undefined): JsonMap | undefined {
  return spec ? child(child(spec, 'template') ?? {}, 'spec') : undefined;
}

/** The defaults of one built-in kind's own fields, by `group/Kind`. */
const KIND_DEFAULTS: Record<string, (obj: JsonMap, spec: JsonMap | undefined) => void> = {
  'apps/Deployment': (_obj, spec) => {
    if (!spec) {
      return;
    }
    def(spec, 'replicas', 1);
    def(spec, 'revisionHistoryLimit', 10);
    def(spec, 'progressDeadlineSeconds', 600);
    def(spec, 'strategy', {});
    const strategy = child(spec, 'strategy')!;
    def(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      def(strategy, 'rollingUpdate', {});
      def(child(strategy, 'rollingUpdate')!, 'maxUnavailable', '25%');
      def(child(strategy, 'rollingUpdate')!, 'maxSurge', '25%');
    }
    defaultPodSpec(podTemplateSpec(spec));
  },
  'apps/StatefulSet': (_obj, spec) => {
    if (!spec) {
      return;
    }
    def(spec, 'replicas', 1);
    def(spec, 'revisionHistoryLimit', 10);
    def(spec, 'podManagementPolicy', 'OrderedReady');
    def(spec, 'updateStrategy', {});
    const strategy = child(spec, 'updateStrategy')!;
    def(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      def(strategy, 'rollingUpdate', {});
      def(child(strategy, 'rollingUpdate')!, 'partition', 0);
    }
    def(spec, 'persistentVolumeClaimRetentionPolicy', {});
    def(child(spec, 'persistentVolumeClaimRetentionPolicy')!, 'whenDeleted', 'Retain');
    def(child(spec, 'persistentVolumeClaimRetentionPolicy')!, 'whenScaled', 'Retain');
    for (const claim of items(spec, 'volumeClaimTemplates')) {
      def(claim, 'apiVersion', 'v1');
      def(claim, 'kind', 'PersistentVolumeClaim');
      def(claim, 'spec', {});
      def(child(claim, 'spec')!, 'volumeMode', 'Filesystem');
      def(claim, 'status', {});
      def(child(claim, 'status')!, 'phase', 'Pending');
    }
    defaultPodSpec(podTemplateSpec(spec));
  },
  'apps/DaemonSet': (_obj, spec) => {
    if (!spec) {
      return;
    }
    def(spec, 'revisionHistoryLimit', 10);
    def(spec, 'updateStrategy', {});
    const strategy = child(spec, 'updateStrategy')!;
    def(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      def(strategy, 'rollingUpdate', {});
      def(child(strategy, 'rollingUpdate')!, 'maxUnavailable', 1);
      def(child(strategy, 'rollingUpdate')!, 'maxSurge', 0);
    }
    defaultPodSpec(podTemplateSpec(spec));
  },
  'apps/ReplicaSet': (_obj, spec) => {
    if (spec) {
      def(spec, 'replicas', 1);
      defaultPodSpec(podTemplateSpec(spec));
    }
  },
  'batch/Job': (_obj, spec) => {
    if (!spec) {
      return;
    }
    if (!hasOwn(spec, 'parallelism') && !hasOwn(spec, 'completions')) {
      def(spec, 'completions', 1);
    }
    def(spec, 'parallelism', 1);
    def(spec, 'backoffLimit', 6);
    def(spec, 'completionMode', 'NonIndexed');
    def(spec, 'suspend', false);
    if (!hasOwn(spec, 'podFailurePolicy')) {
      // JobPodReplacementPolicy, on by default from Kubernetes 1.29.
      def(spec, 'podReplacementPolicy', 'TerminatingOrFailed');
    }
    defaultPodSpec(podTemplateSpec(spec));
  },
  'batch/CronJob': (_obj, spec) => {
    if (!spec) {
      return;
    }
    def(spec, 'concurrencyPolicy', 'Allow');
    def(spec, 'suspend', false);
    def(spec, 'successfulJobsHistoryLimit', 3);
    def(spec, 'failedJobsHistoryLimit', 1);
    defaultPodSpec(podTemplateSpec(child(child(spec, 'jobTemplate') ?? {}, 'spec')));
  },
  '/Pod': (_obj, spec) => {
    if (spec) {
      defaultPodSpec(spec);
      def(spec, 'enableServiceLinks', true);
    }
  },
  '/ReplicationController': (_obj, spec) => {
    if (spec) {
      def(spec, 'replicas', 1);
      defaultPodSpec(podTemplateSpec(spec));
    }
  },
  '/Service': (_obj, spec) => {
    if (!spec) {
      return;
    }
    def(spec, 'type', 'ClusterIP');
    def(spec, 'sessionAffinity', 'None');
    for (const port of items(spec, 'ports')) {
      def(port, 'protocol', 'TCP');
      if (spec.type !== 'ExternalName' && hasOwn(port, 'port')) {
        def(port, 'targetPort', port.port);
      }
    }
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
      def(spec, 'externalTrafficPolicy', 'Cluster');
    }
    if (spec.type !== 'ExternalName') {
      def(spec, 'internalTrafficPolicy', 'Cluster');
    }
    if (spec.type === 'LoadBalancer') {
      def(spec, 'allocateLoadBalancerNodePorts', true);
    }
  },
  '/Secret': (obj) => def(obj, 'type', 'Opaque'),
  '/PersistentVolumeClaim': (_obj, spec) => {
    if (spec) {
      def(spec, 'volumeMode', 'Filesystem');
    }
  },
  'autoscaling/HorizontalPodAutoscaler': (_obj, spec) => {
    if (spec) {
      def(spec, 'minReplicas', 1);
    }
  },
  'networking.k8s.io/NetworkPolicy': (_obj, spec) => {
    if (!spec) {
      return;
    }
    def(spec, 'policyTypes', hasOwn(spec, 'egress') ? ['Ingress', 'Egress'] : ['Ingress']);
    for (const rule of [...items(spec, 'ingress'), ...items(spec, 'egress')]) {
      for (const port of items(rule, 'ports')) {
        def(port, 'protocol', 'TCP');
      }
    }
  },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': (obj) => defaultWebhooks(obj, true),
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': (obj) => defaultWebhooks(obj, false),
  'rbac.authorization.k8s.io/RoleBinding': (obj) => defaultSubjects(obj),
  'rbac.authorization.k8s.io/ClusterRoleBinding': (obj) => defaultSubjects(obj),
};

/** admissionregistration v1 and v1beta1 defaults (pkg/apis/admissionregistration/{v1,v1beta1}/defaults.go). */
function defaultWebhooks(obj: JsonMap, mutating: boolean): void {
  const beta = String(obj.apiVersion ?? '').endsWith('/v1beta1');
  for (const webhook of items(obj, 'webhooks')) {
    def(webhook, 'failurePolicy', beta ? 'Ignore' : 'Fail');
    def(webhook, 'matchPolicy', beta ? 'Exact' : 'Equivalent');
    def(webhook, 'namespaceSelector', {});
    def(webhook, 'objectSelector', {});
    def(webhook, 'timeoutSeconds', beta ? 30 : 10);
    if (beta) {
      def(webhook, 'sideEffects', 'Unknown');
      def(webhook, 'admissionReviewVersions', ['v1beta1']);
    }
    if (mutating) {
      def(webhook, 'reinvocationPolicy', 'Never');
    }
    for (const rule of items(webhook, 'rules')) {
      def(rule, 'scope', '*');
    }
    const service = child(child(webhook, 'clientConfig') ?? {}, 'service');
    if (service) {
      def(service, 'port', 443);
    }
  }
}

function defaultSubjects(obj: JsonMap): void {
  for (const subject of items(obj, 'subjects')) {
    if (subject.kind === 'User' || subject.kind === 'Group') {
      def(subject, 'apiGroup', 'rbac.authorization.k8s.io');
    }
  }
}

/**
 * Gives a built-in object the API server's defaults for the fields it lacks, in place, as the scheme's
 * defaulters do (k8s.io/kubernetes pkg/apis/{core,apps,batch,autoscaling,networking,rbac}/v1/defaults.go, as
 * of Kubernetes 1.29). gitops-engine applies them to both the predicted and the live object before
 * comparing them (pkg/diff/diff.go, applyPatch), so a field Git dropped that falls back to its default is no
 * diff. Kinds it does not know are left as they are.
 */
export function applyApiDefaults(obj: Json): Json {
  if (!isMap(obj)) {
    return obj;
  }
  const defaults = KIND_DEFAULTS[`${groupOf(String(obj.apiVersion ?? ''))}/${String(obj.kind ?? '')}`];
  if (defaults) {
    defaults(obj, child(obj, 'spec'));
  }
  return obj;
}
