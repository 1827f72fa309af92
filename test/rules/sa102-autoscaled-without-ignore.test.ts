import { renderedCheckout } from './checkout';
import {
  deployment, described, expectFindings, findingsOf, findManifest, manifest, modified, Overrides, safeApplication,
} from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { autoscaledWithoutIgnore } from '../../src/rules/sa102-autoscaled-without-ignore';

const WITHOUT_RESPECT = ['CreateNamespace=true', 'PruneLast=true'];

/** The ignoreDifferences entry for exactly the Deployment `web` in checkout, with `overrides` merged in. */
function entry(overrides: Overrides = {}): Overrides {
  return modified({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'checkout', jsonPointers: ['/spec/replicas'] }, overrides);
}

/** safeApplication (RespectIgnoreDifferences=true) with these ignoreDifferences entries. */
function appIgnoring(...entries: Overrides[]): Manifest {
  return safeApplication({ spec: { ignoreDifferences: entries } });
}

/** The Deployment `web` (no replicas) and an autoscaling/v2 HPA that scales it. */
function autoscaledWeb(): { web: Manifest; resources: Manifest[] } {
  const web = deployment('web');
  const hpa = manifest('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', {
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10 },
  });
  return { web, resources: [web, hpa] };
}

describe('SA102 autoscaled-without-ignore', () => {
  test('passes without an ignore rule when the workload declares exactly the count its HPA is pinned to', () => {
    // GIVEN min = max = replicas = 3: Git and the HPA agree, nothing to protect
    const app = safeApplication();
    const web = modified(deployment('web'), { spec: { replicas: 3 } });
    const hpa = manifest('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', {
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 3, maxReplicas: 3 },
    });
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, [web, hpa], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails without an ignore rule when the HPA is pinned but the workload declares no replicas', () => {
    // GIVEN
    const app = safeApplication();
    const web = deployment('web');
    const hpa = manifest('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', {
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 3, maxReplicas: 3 },
    });
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, [web, hpa], app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
  });

  test('passes when the exact entry ignores /spec/replicas and RespectIgnoreDifferences=true is set', () => {
    // GIVEN
    const app = appIgnoring(entry());
    const { resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the entry ignores .spec.replicas with a jq path expression', () => {
    // GIVEN
    const app = appIgnoring(entry({ jsonPointers: undefined, jqPathExpressions: ['.spec.replicas'] }));
    const { resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the entry ignores the fields kube-controller-manager (the HPA controller) owns', () => {
    // GIVEN
    const app = appIgnoring(entry({ jsonPointers: undefined, managedFieldsManagers: ['kube-controller-manager'] }));
    const { resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the entry\'s group is a glob that matches apps, as Argo CD matches it (SA003 reports the glob)', () => {
    // GIVEN
    const app = appIgnoring(entry({ group: 'app*' }));
    const { resources } = autoscaledWeb();
    // WHEN
    const findings = runRules({ application: app, resources, argoCdVersion: ArgoCdVersion.LATEST });
    // THEN the glob is SA003's finding, on the Application; the replicas count as ignored
    expect(described(findings)).toEqual(['SA003 /spec/ignoreDifferences/0/group']);
  });

  test('passes when the entry omits the namespace and the workload omits it too', () => {
    // GIVEN the destination namespace places the workload; an entry without namespace matches every namespace
    const app = appIgnoring(entry({ namespace: undefined }));
    const web = modified(deployment('web'), { metadata: { namespace: undefined } });
    const hpa = manifest('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', {
      metadata: { namespace: undefined },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 10 },
    });
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, [web, hpa], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when nothing autoscales the Deployment', () => {
    // GIVEN
    const app = safeApplication();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, [deployment('web')], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when there is no Application to read ignoreDifferences from', () => {
    // GIVEN loose manifests, as an audit may check them
    const { resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the Application has no ignoreDifferences', () => {
    // GIVEN
    const app = safeApplication();
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
    expect(findings[0].path).toBe('');
    expect(findings[0].message).toContain('has no ignoreDifferences entry for its /spec/replicas');
    expect(findings[0].message).toContain('HorizontalPodAutoscaler web');
  });

  test('fails when the exact entry is there but RespectIgnoreDifferences=true is not', () => {
    // GIVEN
    const app = safeApplication({ spec: { ignoreDifferences: [entry()], syncPolicy: { syncOptions: WITHOUT_RESPECT } } });
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
    expect(findings[0].message).toContain('without RespectIgnoreDifferences=true');
    expect(findings[0].message).not.toContain('has no ignoreDifferences entry');
  });

  test('fails when RespectIgnoreDifferences is false', () => {
    // GIVEN
    const app = safeApplication({
      spec: { ignoreDifferences: [entry()], syncPolicy: { syncOptions: [...WITHOUT_RESPECT, 'RespectIgnoreDifferences=false'] } },
    });
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
    expect(findings[0].message).toContain('without RespectIgnoreDifferences=true');
  });

  test('fails when the entry names another Deployment', () => {
    // GIVEN
    const app = appIgnoring(entry({ name: 'worker' }));
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
    expect(findings[0].message).toContain('has no ignoreDifferences entry');
  });

  test('fails when the entry has the wrong group', () => {
    // GIVEN
    const app = appIgnoring(entry({ group: 'extensions' }));
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
    expect(findings[0].message).toContain('has no ignoreDifferences entry');
  });

  test('fails when the entry has no group, which means the core group', () => {
    // GIVEN
    const app = appIgnoring(entry({ group: undefined }));
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
  });

  test('fails when the entry is for another namespace', () => {
    // GIVEN
    const app = appIgnoring(entry({ namespace: 'payments' }));
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
  });

  test('fails when the entry ignores another field of the right Deployment', () => {
    // GIVEN
    const app = appIgnoring(entry({ jsonPointers: ['/spec/template/metadata/annotations'] }));
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
  });

  test('fails when a KEDA ScaledObject scales the Deployment and nothing ignores its replicas', () => {
    // GIVEN
    const app = safeApplication();
    const web = deployment('web');
    const scaledObject = manifest('keda.sh/v1alpha1', 'ScaledObject', 'web', { spec: { scaleTargetRef: { name: 'web' } } });
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, [scaledObject, web], app);
    // THEN
    expectFindings(findings, web, ['SA102 ']);
    expect(findings[0].message).toContain('ScaledObject web');
  });

  test('passes on what the library renders for examples/checkout', () => {
    // GIVEN the real output: an HpaManagedDeployment, its HPA and the ignore rule it adds
    const { application, resources, argoCdVersion } = renderedCheckout();
    findManifest(resources, 'HorizontalPodAutoscaler', 'checkout-web');
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, application, argoCdVersion);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the Application the library renders for examples/checkout loses its ignoreDifferences', () => {
    // GIVEN the real output, without the ignore rule HpaManagedDeployment added
    const { application, resources, argoCdVersion } = renderedCheckout();
    const stripped = modified(application, { spec: { ignoreDifferences: undefined } });
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, stripped, argoCdVersion);
    // THEN the rule sees the real HPA's target
    expectFindings(findings, findManifest(resources, 'Deployment', 'checkout-web'), ['SA102 ']);
  });
});

describe('SA102 edges', () => {
  test('an ignoreDifferences entry that is not an object covers nothing', () => {
    // GIVEN entries null and a string, and nothing else
    const app = safeApplication({ spec: { ignoreDifferences: [null, 'apps/Deployment/web'] } });
    const { web, resources } = autoscaledWeb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    // THEN the replicas are still unguarded (reported on the whole workload, which has no replicas field)
    expectFindings(findings, web, ['SA102 ']);
    expect(findings[0].message).toBe('HorizontalPodAutoscaler web scales it, but Application checkout has no ignoreDifferences entry for its /spec/replicas');
  });
});

describe('SA102 on StatefulSets', () => {
  /** A hand-written StatefulSet `db` (no replicas) and an HPA that scales it. */
  function autoscaledDb(): { db: Manifest; resources: Manifest[] } {
    const db = manifest('apps/v1', 'StatefulSet', 'db', { spec: { serviceName: 'db', template: { spec: { containers: [{ name: 'db', image: 'acme.internal/db:1.0.0' }] } } } });
    const hpa = manifest('autoscaling/v2', 'HorizontalPodAutoscaler', 'db', {
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, minReplicas: 2, maxReplicas: 6 },
    });
    return { db, resources: [db, hpa] };
  }

  test('passes when the entry names the StatefulSet and RespectIgnoreDifferences=true is set', () => {
    const { resources } = autoscaledDb();
    expect(findingsOf(autoscaledWithoutIgnore, resources, appIgnoring(entry({ kind: 'StatefulSet', name: 'db' })))).toEqual([]);
  });

  test('fails when the only entry is for a Deployment of the same name', () => {
    // GIVEN an ignore rule copied from a Deployment: it does not cover the StatefulSet
    const { db, resources } = autoscaledDb();
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, appIgnoring(entry({ name: 'db' })));
    // THEN
    expectFindings(findings, db, ['SA102 ']);
  });

  test('fails when the StatefulSet is ignored but the app does not respect ignore rules', () => {
    const { db, resources } = autoscaledDb();
    const app = safeApplication({ spec: { ignoreDifferences: [entry({ kind: 'StatefulSet', name: 'db' })], syncPolicy: { syncOptions: WITHOUT_RESPECT } } });
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    expect(described(findings)).toEqual(['SA102 ']);
    expect(findings[0].object).toBe(db);
  });
});

describe('SA102 on Argo Rollouts and KEDA ScaledObjects', () => {
  const rolloutEntry = { group: 'argoproj.io', kind: 'Rollout', name: 'web', namespace: 'checkout', jsonPointers: ['/spec/replicas'] };
  /** The Rollout web (no replicas) and an autoscaler of `kind` that scales it. */
  function autoscaledRollout(kind: 'HorizontalPodAutoscaler' | 'ScaledObject'): { web: Manifest; resources: Manifest[] } {
    const web = manifest('argoproj.io/v1alpha1', 'Rollout', 'web', { spec: { template: { spec: { containers: [{ name: 'web', image: 'acme.internal/web:1.0.0' }] } } } });
    const scaleTargetRef = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web' };
    const owner = kind === 'HorizontalPodAutoscaler'
      ? manifest('autoscaling/v2', kind, 'web', { spec: { scaleTargetRef, minReplicas: 2, maxReplicas: 10 } })
      : manifest('keda.sh/v1alpha1', kind, 'web', { spec: { scaleTargetRef, minReplicaCount: 0, maxReplicaCount: 10 } });
    return { web, resources: [web, owner] };
  }

  test.each(['HorizontalPodAutoscaler', 'ScaledObject'] as const)('fails when a %s scales a Rollout the Application does not ignore', (kind) => {
    // GIVEN an Application without ignoreDifferences
    const { web, resources } = autoscaledRollout(kind);
    // WHEN
    const findings = findingsOf(autoscaledWithoutIgnore, resources, safeApplication());
    // THEN
    expect(findings.map((f) => [f.rule.id, f.object, f.message])).toEqual([
      ['SA102', web, `${kind} web scales it, but Application checkout has no ignoreDifferences entry for its /spec/replicas`],
    ]);
  });

  test.each(['HorizontalPodAutoscaler', 'ScaledObject'] as const)('passes when a %s scales a Rollout whose /spec/replicas the Application ignores', (kind) => {
    const { resources } = autoscaledRollout(kind);
    expect(findingsOf(autoscaledWithoutIgnore, resources, appIgnoring(rolloutEntry))).toEqual([]);
  });

  test('fails when the entry for the Rollout names the apps group', () => {
    const { web, resources } = autoscaledRollout('HorizontalPodAutoscaler');
    const findings = findingsOf(autoscaledWithoutIgnore, resources, appIgnoring({ ...rolloutEntry, group: 'apps' }));
    expect(findings.map((f) => [f.rule.id, f.object])).toEqual([['SA102', web]]);
  });

  test('fails when the Rollout is ignored but RespectIgnoreDifferences=true is not set', () => {
    const { web, resources } = autoscaledRollout('ScaledObject');
    const app = safeApplication({ spec: { ignoreDifferences: [rolloutEntry], syncPolicy: { syncOptions: WITHOUT_RESPECT } } });
    const findings = findingsOf(autoscaledWithoutIgnore, resources, app);
    expect(findings.map((f) => [f.rule.id, f.object, f.message])).toEqual([
      ['SA102', web, 'ScaledObject web scales it, and its /spec/replicas is ignored, but without RespectIgnoreDifferences=true a sync still applies the Git value'],
    ]);
  });

  describe('the Deployment a Rollout references with workloadRef', () => {
    const api = () => deployment('api');
    const ro = manifest('argoproj.io/v1alpha1', 'Rollout', 'api', {
      spec: { workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', scaleDown: 'onsuccess' } },
    });
    const apiEntry = { group: 'apps', kind: 'Deployment', name: 'api', namespace: 'checkout' };

    test('fails when the Application does not ignore the Deployment\'s /spec/replicas', () => {
      const deploy = api();
      const findings = findingsOf(autoscaledWithoutIgnore, [deploy, ro], safeApplication());
      expect(findings.map((f) => [f.rule.id, f.object, f.message])).toEqual([
        ['SA102', deploy, 'Rollout api (workloadRef, scaleDown onsuccess) scales it, but Application checkout has no ignoreDifferences entry for its /spec/replicas'],
      ]);
    });

    test('passes when the Application ignores the Deployment\'s /spec/replicas', () => {
      expect(findingsOf(autoscaledWithoutIgnore, [api(), ro], appIgnoring({ ...apiEntry, jsonPointers: ['/spec/replicas'] }))).toEqual([]);
    });

    test('fails when the entry only names the HPA controller\'s field manager, which is not who scales it down', () => {
      const deploy = api();
      const findings = findingsOf(autoscaledWithoutIgnore, [deploy, ro], appIgnoring({ ...apiEntry, managedFieldsManagers: ['kube-controller-manager'] }));
      expect(findings.map((f) => [f.rule.id, f.object])).toEqual([['SA102', deploy]]);
    });
  });
});
