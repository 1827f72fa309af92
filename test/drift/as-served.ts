import { clone, JsonMap } from '../../src/drift/json';

// Objects as a Kubernetes 1.29+ API server returns them after Argo CD 3.x applied them client-side: the tracking
// annotation, the namespace, last-applied as kubectl writes it, the API defaults, quantities in canonical form,
// omitempty zero values gone, managedFields, uid and status. Written out by hand for the kinds the examples render.

const FIXED = '2026-01-01T00:00:00Z';
/** The quantities the example renders, as the API server stores them (k8s.io/apimachinery resource.Quantity). */
const CANONICAL: Record<string, string> = { '1000m': '1', '2048Mi': '2Gi', '1500m': '1500m', '512Mi': '512Mi' };

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** Pod template defaults, written out as the API server returns them. */
function servedPodTemplate(template: any): void {
  template.metadata = { creationTimestamp: null, ...(template.metadata ?? {}) };
  const spec = template.spec;
  delete spec.hostNetwork; // false is omitted
  spec.schedulerName = 'default-scheduler';
  for (const c of spec.containers ?? []) {
    c.terminationMessagePath = '/dev/termination-log';
    c.terminationMessagePolicy = 'File';
    for (const p of c.ports ?? []) {
      p.protocol = 'TCP';
    }
    for (const list of ['limits', 'requests']) {
      for (const [k, v] of Object.entries(c.resources?.[list] ?? {})) {
        c.resources[list][k] = CANONICAL[String(v)] ?? v;
      }
    }
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
      if (c[probe]) {
        c[probe] = { periodSeconds: 10, successThreshold: 1, timeoutSeconds: 1, failureThreshold: 3, ...c[probe] };
      }
    }
  }
}

/** What the API server adds or changes for each kind the example renders (objects of other kinds are kept as applied). */
const SERVED: Record<string, (live: any) => void> = {
  'apps/Deployment': (live) => {
    delete live.spec.minReadySeconds; // 0 is omitted
    live.spec.replicas = 3; // the HPA's minimum; Git has no replicas
    live.spec.revisionHistoryLimit = 10;
    servedPodTemplate(live.spec.template);
    live.status = { observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3 };
  },
  '/Service': (live) => {
    Object.assign(live.spec, {
      type: live.spec.type ?? 'ClusterIP',
      sessionAffinity: 'None',
      clusterIP: '10.96.40.12',
      clusterIPs: ['10.96.40.12'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
    for (const p of live.spec.ports) {
      p.protocol = p.protocol ?? 'TCP';
      p.targetPort = p.targetPort ?? p.port;
    }
    live.status = { loadBalancer: {} };
  },
  'autoscaling/HorizontalPodAutoscaler': (live) => {
    live.status = { currentReplicas: 3, desiredReplicas: 3, currentMetrics: null };
  },
  'rbac.authorization.k8s.io/RoleBinding': (live) => {
    for (const s of live.subjects ?? []) {
      if (s.kind === 'Group' || s.kind === 'User') {
        s.apiGroup = s.apiGroup ?? 'rbac.authorization.k8s.io';
      }
    }
  },
  'argoproj.io/Application': (live) => {
    live.status = { sync: { status: 'Synced' }, health: { status: 'Healthy' } };
  },
};

/** `desired` as the cluster returns it after Argo CD (annotation tracking) applied it for `app` into `namespace`. */
export function asServed(desired: JsonMap, app: string, namespace: string): JsonMap {
  const target: any = clone(desired);
  target.metadata.namespace = target.metadata.namespace ?? namespace;
  const group = groupOf(target.apiVersion);
  target.metadata.annotations = {
    ...(target.metadata.annotations ?? {}),
    'argocd.argoproj.io/tracking-id': `${app}:${group}/${target.kind}:${target.metadata.namespace}/${target.metadata.name ?? target.metadata.generateName}`,
  };
  const live: any = clone(target);
  live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = `${JSON.stringify(target)}\n`;
  if (live.metadata.name === undefined) {
    live.metadata.name = `${live.metadata.generateName}x7k2q`;
  }
  Object.assign(live.metadata, {
    uid: '5f0c2a9e-0000-4000-8000-00000000c0de',
    resourceVersion: '918273',
    generation: 1,
    creationTimestamp: FIXED,
    managedFields: [{ manager: 'argocd-controller', operation: 'Update', apiVersion: live.apiVersion, time: FIXED, fieldsType: 'FieldsV1', fieldsV1: {} }],
  });
  SERVED[`${group}/${live.kind}`]?.(live);
  return live;
}
