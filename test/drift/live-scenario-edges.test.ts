import { deployment, edited } from './support';
import { LiveScenario } from '../../src';
import { JsonMap } from '../../src/drift/json';

// The whole live object LiveScenario builds: what a cluster returns after a client-side apply by Argo CD
// (last-applied annotation, managedFields of argocd-controller, API defaults), then one field manager's
// change, recorded in managedFields as fieldsV1 (f: fields, k: list items by their merge key).

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const TIME = '2026-01-01T00:00:00Z';
const BUNDLE = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==';
const FIX = 'Fix: e.g. kubectlEdit(\'/spec/template/spec/containers/0/image\', \'"app:2.0.0"\')';

/** The live object `scenario` builds from `desired`, parsed. */
function liveOf(scenario: LiveScenario, desired: JsonMap): any {
  return JSON.parse(scenario.liveFrom(JSON.stringify(desired)));
}

/** One managedFields entry as LiveScenario writes it. */
function entry(manager: string, apiVersion: string, fieldsV1: JsonMap, subresource?: string): JsonMap {
  return { manager, operation: 'Update', apiVersion, time: TIME, fieldsType: 'FieldsV1', fieldsV1, ...(subresource ? { subresource } : {}) };
}

/** The metadata a cluster adds to `desired`'s on create, with the given managedFields. */
function clusterMetadata(desired: JsonMap, managedFields: JsonMap[]): JsonMap {
  const metadata = desired.metadata as JsonMap;
  return {
    ...metadata,
    annotations: { ...(metadata.annotations as JsonMap ?? {}), [LAST_APPLIED]: JSON.stringify(desired) },
    uid: '00000000-0000-4000-8000-000000000000',
    resourceVersion: '1',
    generation: 1,
    creationTimestamp: TIME,
    managedFields,
  };
}

/** The fieldsV1 of argocd-controller for `deployment()`: every field Git declares. */
const DEPLOYMENT_FIELDS: JsonMap = {
  'f:metadata': { '.': {}, 'f:name': {}, 'f:namespace': {}, 'f:labels': { '.': {}, 'f:app': {} } },
  'f:spec': {
    '.': {},
    'f:selector': { '.': {}, 'f:matchLabels': { '.': {}, 'f:app': {} } },
    'f:template': {
      '.': {},
      'f:metadata': { '.': {}, 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        '.': {},
        'f:containers': {
          'k:{"name":"web"}': {
            '.': {},
            'f:name': {},
            'f:image': {},
            'f:ports': { 'k:{"containerPort":8080}': { '.': {}, 'f:containerPort': {} } },
            'f:env': { 'k:{"name":"MODE"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
          },
        },
      },
    },
  },
};

/** `deployment()` as the cluster returns it, with the Deployment defaults, before any scenario. */
function appliedDeployment(desired: JsonMap = deployment(), managedFields: JsonMap[] = [entry('argocd-controller', 'apps/v1', DEPLOYMENT_FIELDS)]): any {
  return {
    ...desired,
    metadata: clusterMetadata(desired, managedFields),
    spec: { ...(desired.spec as JsonMap), replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
  };
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a throw');
}

describe('descriptions', () => {
  test.each([
    ['nothing changed', () => LiveScenario.unchanged()],
    ['HPA scales to 8', () => LiveScenario.hpaScales(8)],
    ['KEDA scales to 0', () => LiveScenario.kedaScalesToZero()],
    ['istio injects container istio-proxy', () => LiveScenario.sidecarInjected('istio-proxy', 'istio')],
    ['cainjector writes caBundle', () => LiveScenario.caBundleWritten()],
    ['kubectl scale --replicas=5', () => LiveScenario.kubectlScale(5)],
    ['kubectl set image web=registry.acme.internal/web:hotfix', () => LiveScenario.kubectlSetImage('web', 'registry.acme.internal/web:hotfix')],
    ['kubectl edit /spec/replicas', () => LiveScenario.kubectlEdit('/spec/replicas', '4')],
  ])('%j', (description, scenario) => {
    expect(scenario().description).toBe(description);
  });
});

describe('the live object after the apply', () => {
  test('unchanged: Git\'s Deployment with last-applied, the cluster\'s metadata, the defaults, and argocd-controller owning every field', () => {
    expect(liveOf(LiveScenario.unchanged(), deployment())).toEqual(appliedDeployment());
  });

  test('argocd-controller owns neither apiVersion, kind nor status at the top, but nested fields of those names; atomic lists as a whole', () => {
    // GIVEN an HPA rendered with a status, whose scaleTargetRef has apiVersion and kind, and a Deployment
    // whose pod template has tolerations (a list without a merge key) and container args
    const hpa: JsonMap = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'payments' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    };
    const tolerating = edited(deployment(), (d) => {
      d.spec.template.spec.tolerations = [{ key: 'dedicated', operator: 'Exists' }];
      d.spec.template.spec.containers[0].args = ['--port=8080'];
    });

    // WHEN the live objects are built
    const hpaLive = liveOf(LiveScenario.unchanged(), hpa);
    const deploymentLive = liveOf(LiveScenario.unchanged(), tolerating);

    // THEN the HPA keeps its status, and the fieldsV1 have exactly these members
    expect(hpaLive).toEqual({
      ...hpa,
      metadata: clusterMetadata(hpa, [entry('argocd-controller', 'autoscaling/v2', {
        'f:metadata': { '.': {}, 'f:name': {}, 'f:namespace': {} },
        'f:spec': {
          '.': {},
          'f:scaleTargetRef': { '.': {}, 'f:apiVersion': {}, 'f:kind': {}, 'f:name': {} },
          'f:minReplicas': {},
          'f:maxReplicas': {},
        },
      })]),
    });
    const podSpec = (deploymentLive.metadata.managedFields[0].fieldsV1 as any)['f:spec']['f:template']['f:spec'];
    expect(podSpec['f:tolerations']).toEqual({});
    expect(podSpec['f:containers']['k:{"name":"web"}']['f:args']).toEqual({});
  });
});

describe('scalers', () => {
  test('kedaScalesToZero: replicas 0, owned by keda-operator through the scale subresource', () => {
    expect(liveOf(LiveScenario.kedaScalesToZero(), deployment())).toEqual(edited(appliedDeployment(), (d) => {
      d.spec.replicas = 0;
      d.metadata.managedFields.push(entry('keda-operator', 'apps/v1', { 'f:spec': { 'f:replicas': {} } }, 'scale'));
    }));
  });

  test('kubectlScale: replicas 5, owned by kubectl through the scale subresource', () => {
    expect(liveOf(LiveScenario.kubectlScale(5), deployment(3))).toEqual(edited(appliedDeployment(deployment(3), [entry('argocd-controller', 'apps/v1', {
      ...DEPLOYMENT_FIELDS,
      'f:spec': { ...(DEPLOYMENT_FIELDS['f:spec'] as JsonMap), 'f:replicas': {} },
    })]), (d) => {
      d.spec.replicas = 5;
      d.metadata.managedFields.push(entry('kubectl', 'apps/v1', { 'f:spec': { 'f:replicas': {} } }, 'scale'));
    }));
  });
});

describe('sidecarInjected', () => {
  test('appends the container with an injected image; the injector owns the new list item', () => {
    expect(liveOf(LiveScenario.sidecarInjected('istio-proxy', 'istio'), deployment())).toEqual(edited(appliedDeployment(), (d) => {
      d.spec.template.spec.containers.push({ name: 'istio-proxy', image: 'injected/istio-proxy:1.0.0' });
      d.metadata.managedFields.push(entry('istio', 'apps/v1', {
        'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"istio-proxy"}': { '.': {} } } } } },
      }));
    }));
  });

  test('leaves an object without a pod template alone, with no managedFields entry for the injector', () => {
    const service: JsonMap = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'payments' }, spec: { selector: { app: 'web' } } };
    expect(liveOf(LiveScenario.sidecarInjected('istio-proxy', 'istio'), service))
      .toEqual(liveOf(LiveScenario.unchanged(), service));
  });
});

describe('kubectlSetImage', () => {
  const twoContainers = () => edited(deployment(), (d) => {
    d.spec.template.spec.containers.push({ name: 'worker', image: 'registry.acme.internal/worker:1.0.0' });
  });

  test('changes the named container, not the first one, and kubectl-set owns that image through its key', () => {
    const live = liveOf(LiveScenario.kubectlSetImage('worker', 'registry.acme.internal/worker:hotfix'), twoContainers());
    expect(live.spec.template.spec.containers).toEqual([
      (deployment() as any).spec.template.spec.containers[0],
      { name: 'worker', image: 'registry.acme.internal/worker:hotfix' },
    ]);
    expect(live.metadata.managedFields.slice(1)).toEqual([entry('kubectl-set', 'apps/v1', {
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"worker"}': { 'f:image': {} } } } } },
    })]);
  });

  test.each([
    ['a container name the Deployment does not have', twoContainers()],
    ['an object without containers', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'payments' }, data: { mode: 'prod' } }],
  ])('changes nothing for %s', (_what, desired) => {
    expect(liveOf(LiveScenario.kubectlSetImage('missing', 'registry.acme.internal/x:1'), desired as JsonMap))
      .toEqual(liveOf(LiveScenario.unchanged(), desired as JsonMap));
  });
});

describe('caBundleWritten', () => {
  test('writes the bundle into every webhook of a webhook configuration, owned by cainjector per webhook', () => {
    // GIVEN a ValidatingWebhookConfiguration with two webhooks
    const webhook = (name: string) => ({ name, admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { service: { name: 'checkout', namespace: 'payments' } } });
    const desired: JsonMap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'checkout' },
      webhooks: [webhook('a.acme.internal'), webhook('b.acme.internal')],
    };

    // WHEN cainjector runs
    const live = liveOf(LiveScenario.caBundleWritten(), desired);

    // THEN both webhooks carry the bundle, and cainjector owns both, by webhook name
    expect(live.webhooks).toEqual(edited(desired, (d) => {
      d.webhooks[0].clientConfig.caBundle = BUNDLE;
      d.webhooks[1].clientConfig.caBundle = BUNDLE;
    }).webhooks);
    expect(live.metadata.managedFields.map((m: any) => m.manager)).toEqual(['argocd-controller', 'cainjector']);
    expect(live.metadata.managedFields[1]).toEqual(entry('cainjector', 'admissionregistration.k8s.io/v1', {
      'f:webhooks': {
        'k:{"name":"a.acme.internal"}': { 'f:clientConfig': { 'f:caBundle': {} } },
        'k:{"name":"b.acme.internal"}': { 'f:clientConfig': { 'f:caBundle': {} } },
      },
    }));
  });

  test('writes the bundle into a CRD\'s conversion webhook', () => {
    const desired: JsonMap = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.acme.internal' },
      spec: {
        group: 'acme.internal',
        names: { kind: 'Widget', plural: 'widgets' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true }],
        conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { name: 'widgets', namespace: 'payments' } } } },
      },
    };
    const live = liveOf(LiveScenario.caBundleWritten(), desired);
    expect(live.spec).toEqual(edited(desired, (d) => { d.spec.conversion.webhook.clientConfig.caBundle = BUNDLE; }).spec);
    expect(live.metadata.managedFields[1]).toEqual(entry('cainjector', 'apiextensions.k8s.io/v1', {
      'f:spec': { 'f:conversion': { 'f:webhook': { 'f:clientConfig': { 'f:caBundle': {} } } } },
    }));
  });

  test('writes the bundle into an APIService\'s spec', () => {
    const desired: JsonMap = {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: { group: 'metrics.k8s.io', version: 'v1beta1', service: { name: 'metrics-server', namespace: 'kube-system' }, groupPriorityMinimum: 100, versionPriority: 100 },
    };
    const live = liveOf(LiveScenario.caBundleWritten(), desired);
    expect(live.spec).toEqual({ ...(desired.spec as JsonMap), caBundle: BUNDLE });
    expect(live.metadata.managedFields[1]).toEqual(entry('cainjector', 'apiregistration.k8s.io/v1', { 'f:spec': { 'f:caBundle': {} } }));
  });

  test('leaves any other kind alone, with no managedFields entry for cainjector', () => {
    const service: JsonMap = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'payments' }, spec: { selector: { app: 'web' } } };
    expect(liveOf(LiveScenario.caBundleWritten(), service)).toEqual(liveOf(LiveScenario.unchanged(), service));
  });
});

describe('kubectlEdit', () => {
  test('sets a field and kubectl-edit owns it, without a subresource', () => {
    expect(liveOf(LiveScenario.kubectlEdit('/spec/replicas', '4'), deployment())).toEqual(edited(appliedDeployment(), (d) => {
      d.spec.replicas = 4;
      d.metadata.managedFields.push(entry('kubectl-edit', 'apps/v1', { 'f:spec': { 'f:replicas': {} } }));
    }));
  });

  test('replaces a whole keyed list item given by its index; kubectl-edit owns the item', () => {
    // WHEN the env item MODE is replaced through its index
    const live = liveOf(LiveScenario.kubectlEdit('/spec/template/spec/containers/0/env/0', '{"name":"MODE","value":"debug"}'), deployment());

    // THEN env is still a list with the new item, and the item is owned by its key
    expect(live.spec.template.spec.containers[0].env).toEqual([{ name: 'MODE', value: 'debug' }]);
    expect(live.metadata.managedFields[1]).toEqual(entry('kubectl-edit', 'apps/v1', {
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:env': { 'k:{"name":"MODE"}': { '.': {} } } } } } } },
    }));
  });

  test('changes only the indexed item of a list nested in a top-level list', () => {
    // GIVEN a webhook configuration (webhooks is a list at the top of the object)
    const desired: JsonMap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'checkout' },
      webhooks: [{ name: 'a.acme.internal', admissionReviewVersions: ['v1beta1', 'v1'], sideEffects: 'None' }],
    };

    // WHEN the first admissionReviewVersions item is edited
    const live = liveOf(LiveScenario.kubectlEdit('/webhooks/0/admissionReviewVersions/0', '"v1"'), desired);

    // THEN only that item changed
    expect(live.webhooks).toEqual([{ name: 'a.acme.internal', admissionReviewVersions: ['v1', 'v1'], sideEffects: 'None' }]);
  });

  test('creates a map for a missing parent, even when the last key is a number', () => {
    const live = liveOf(LiveScenario.kubectlEdit('/spec/template/metadata/annotations/1', '"x"'), deployment());
    expect(live.spec.template.metadata).toEqual({ labels: { app: 'web' }, annotations: { 1: 'x' } });
    expect(live.metadata.managedFields[1]).toEqual(entry('kubectl-edit', 'apps/v1', {
      'f:spec': { 'f:template': { 'f:metadata': { 'f:annotations': { 'f:1': {} } } } },
    }));
  });

  test.each([
    ['a pointer without the leading slash', 'spec/replicas', '3',
      '[SAFE-007] LiveScenario.kubectlEdit: pointer is "spec/replicas"; it is not a valid RFC 6901 pointer: a JSON pointer starts with "/". ' + FIX],
    ['an unescaped "~"', '/metadata/annotations/a~b', '"x"',
      '[SAFE-007] LiveScenario.kubectlEdit: pointer is "/metadata/annotations/a~b"; it is not a valid RFC 6901 pointer: '
      + '"~" must be escaped as "~0" ("/" inside a key is "~1"). ' + FIX],
    ['a value that is not JSON', '/spec/replicas', 'three',
      '[SAFE-102] LiveScenario.kubectlEdit: valueJson is "three"; it must be JSON. ' + FIX],
    ['both: the pointer is reported', 'replicas', 'three',
      '[SAFE-007] LiveScenario.kubectlEdit: pointer is "replicas"; it is not a valid RFC 6901 pointer: a JSON pointer starts with "/". ' + FIX],
  ])('fails on %s, naming the argument, the value and an example', (_what, pointer, valueJson, message) => {
    expect(messageOf(() => LiveScenario.kubectlEdit(pointer, valueJson))).toBe(message);
  });
});
