import { deepFreeze, deployment, described, expectFindings, findingsFor, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules, unsuppressed } from '../../src/rules/engine';
import { ALL_RULES, findRule } from '../../src/rules/registry';
import { RuleInput } from '../../src/rules/types';

const SUPPRESS_SA006 = 'safe-argocd/suppress.SA006';
const REASON = 'retries are handled by the release pipeline';

/** An Application without a retry policy, carrying `annotations`. */
function withoutRetry(annotations: { [key: string]: unknown } = {}): Manifest {
  return safeApplication({ metadata: { annotations }, spec: { syncPolicy: { retry: undefined } } });
}

/** An Application for Argo CD 3.0 that breaks every rule once. */
function breakingEveryRule(): Manifest {
  return safeApplication({
    metadata: { finalizers: ['resources-finalizer.argocd.argoproj.io'] },
    spec: {
      project: 'default',
      source: {
        targetRevision: 'HEAD',
        repoURL: 'https://git.example.com/payments/checkout.git',
        helm: { parameters: [{ name: 'postgresql.auth.password', value: 'hunter2' }], valueFiles: ['$values/checkout.yaml'], ignoreMissingValueFiles: true },
      },
      // (the second entry's group "core" is no API group: SA019)
      ignoreDifferences: [{ group: '*', kind: 'Deployment', name: 'checkout', jsonPointers: ['spec/replicas'] }, { group: 'core', kind: 'Secret', name: 'db', jsonPointers: ['/data'] }],
      syncPolicy: {
        automated: { enabled: true, prune: true, selfHeal: false, allowEmpty: true },
        retry: undefined,
        syncOptions: ['ApplyOutOfSyncOnly=true', 'PruneLast=True'],
      },
    },
  });
}

/** An AppProject (the app's "default" project) that breaks SA201, SA202, SA205 and SA208 once each, and a Secret with data (SA203). */
function governanceBreakingEveryRule(): Manifest[] {
  return [{
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: 'default', namespace: 'argocd' },
    spec: {
      sourceRepos: ['*'],
      destinations: [{ namespace: 'elsewhere', server: 'https://kubernetes.default.svc' }],
      roles: [{ name: 'ops', policies: ['p, proj:default:ops, applications, override, default/*, allow'] }],
      syncWindows: [{ kind: 'deny', schedule: '0 22 * * 5', duration: '58h', applications: ['*'] }],
    },
  }, {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'checkout' }, data: { password: 'aHVudGVyMg==' },
  }];
}

/** Workloads that break each workload rule once: replicas under an HPA, a Job in a wave, a hook without deadline. */
function workloadsBreakingEveryRule(): Manifest[] {
  const scaled = deployment('web');
  return [
    { ...scaled, spec: { ...(scaled.spec as object), replicas: 2 } },
    { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'checkout' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 } },
    { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'web-keda', namespace: 'checkout' }, spec: { scaleTargetRef: { name: 'web' }, minReplicaCount: 0 } },
    { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', namespace: 'checkout', annotations: { 'argocd.argoproj.io/sync-wave': '0' } }, spec: { activeDeadlineSeconds: 60 } },
    { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'hook', namespace: 'checkout', annotations: { 'argocd.argoproj.io/hook': 'PreSync' } }, spec: {} },
  ];
}

describe('runRules', () => {
  test('by default runs the rules a synth runs: all but the audit-only ones', () => {
    // GIVEN an app that breaks every rule, SA009 and SA010 (audit only) among them
    const input: RuleInput = { application: breakingEveryRule(), resources: [], argoCdVersion: ArgoCdVersion.LATEST };
    // WHEN run by default and with every rule
    const ids = (findings: { rule: { id: string } }[]) => [...new Set(findings.map((f) => f.rule.id))];
    // THEN only the full set has SA009
    expect(ids(runRules(input, ALL_RULES))).toContain('SA009');
    expect(ids(runRules(input))).not.toContain('SA009');
    expect(ids(runRules(input))).not.toContain('SA010');
    const auditOnly = ALL_RULES.filter((r) => r.auditOnly).map((r) => r.id);
    expect(ids(runRules(input)).length).toBe(ids(runRules(input, ALL_RULES)).filter((id) => !auditOnly.includes(id)).length);
  });

  test('passes the safe Application through every rule', () => {
    // GIVEN
    const input: RuleInput = { application: safeApplication(), resources: [deployment('checkout')], argoCdVersion: ArgoCdVersion.LATEST };
    // WHEN
    const findings = runRules(input, ALL_RULES);
    // THEN
    expect(findings).toEqual([]);
  });

  test('reports findings in rule order, then in the order each rule found them', () => {
    // GIVEN
    const app = breakingEveryRule();
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.V3_0);
    // THEN
    expectFindings(findings, app, [
      'SA001 /spec/syncPolicy/automated/selfHeal',
      'SA002 /spec/syncPolicy/syncOptions',
      'SA003 /spec/ignoreDifferences/0/group',
      'SA004 /spec/syncPolicy/automated/enabled',
      'SA005 /spec/project',
      'SA006 /spec/syncPolicy/retry',
      'SA007 /spec/source/targetRevision',
      'SA008 /spec/syncPolicy/automated/allowEmpty',
      'SA009 /spec/source/repoURL',
      'SA010 /metadata/finalizers/0',
      'SA012 /spec/syncPolicy/syncOptions/1',
      'SA013 /spec/ignoreDifferences/0/jsonPointers/0',
      'SA015 /spec/source/helm/valueFiles/0',
      'SA017 /spec/source/helm/ignoreMissingValueFiles',
      'SA019 /spec/ignoreDifferences/1/group',
      'SA207 /spec/source/helm/parameters/0/value',
    ]);
  });

  test('follows the order of the rules it is given', () => {
    // GIVEN
    const input: RuleInput = { application: breakingEveryRule(), resources: [], argoCdVersion: ArgoCdVersion.V3_0 };
    // WHEN
    const findings = runRules(input, [findRule('SA008')!, findRule('SA001')!]);
    // THEN
    expect(described(findings)).toEqual(['SA008 /spec/syncPolicy/automated/allowEmpty', 'SA001 /spec/syncPolicy/automated/selfHeal']);
  });
});

describe('suppressions', () => {
  test('marks a finding whose object carries a reasoned suppression, without dropping it', () => {
    // GIVEN
    const app = withoutRetry({ [SUPPRESS_SA006]: REASON });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA006 /spec/syncPolicy/retry']);
    expect(findings[0].suppressedBecause).toBe(REASON);
    expect(unsuppressed(findings)).toEqual([]);
  });

  test('keeps the reason without surrounding whitespace', () => {
    // GIVEN
    const app = withoutRetry({ [SUPPRESS_SA006]: `  ${REASON}\n` });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings.map((f) => f.suppressedBecause)).toEqual([REASON]);
  });

  test.each(['', '   ', true, null])('does not suppress with the reason %j', (reason) => {
    // GIVEN
    const app = withoutRetry({ [SUPPRESS_SA006]: reason });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(described(unsuppressed(findings))).toEqual(['SA006 /spec/syncPolicy/retry']);
    expect(findings[0].suppressedBecause).toBeUndefined();
  });

  test('does not suppress with a suppression for another rule', () => {
    // GIVEN
    const app = withoutRetry({ 'safe-argocd/suppress.SA005': REASON });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(described(unsuppressed(findings))).toEqual(['SA006 /spec/syncPolicy/retry']);
  });

  test('does not suppress with a suppression on another object', () => {
    // GIVEN the Deployment, not the Application, carries the suppression
    const app = withoutRetry();
    const resources = [deployment('checkout', { [SUPPRESS_SA006]: REASON })];
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.LATEST, resources);
    // THEN
    expect(described(unsuppressed(findings))).toEqual(['SA006 /spec/syncPolicy/retry']);
  });
});

describe('purity and robustness', () => {
  test('rules change nothing in a deeply frozen input', () => {
    // GIVEN two inputs that together break every rule once: an auto-syncing app with a recorded, expired
    // break-glass and governance objects, and a manual app without a record (SA206)
    const expired = { ...breakingEveryRule() } as any;
    expired.metadata = { ...expired.metadata, annotations: { 'safe-argocd/break-glass-reason': 'incident 42: hand-patched', 'safe-argocd/break-glass-expires': '2020-01-01' } };
    const input: RuleInput = deepFreeze({
      application: expired,
      resources: [deployment('checkout', { [SUPPRESS_SA006]: REASON }), ...workloadsBreakingEveryRule(), ...governanceBreakingEveryRule()],
      argoCdVersion: ArgoCdVersion.V3_0,
      today: '2026-01-01',
      // An audit of a repository that holds none of the app's folders (SA014)
      repository: { isAudited: () => true, hasDirectory: () => false },
    });
    // and an ApplicationSet whose controller deletes the Applications of folders that go (SA016), in an audit
    const manual: RuleInput = deepFreeze({
      application: safeApplication({ spec: { syncPolicy: { automated: undefined } } }),
      resources: [{
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        metadata: { name: 'apps', namespace: 'argocd' },
        // preserving resources, so that it breaks SA016 alone, not SA010 a second time; goTemplateOption, misspelt, breaks SA020
        spec: {
          generators: [{ git: { repoURL: 'https://git.acme.internal/platform/gitops.git', revision: 'main', directories: [{ path: 'apps/*' }] } }],
          syncPolicy: { preserveResourcesOnDeletion: true },
          goTemplateOption: ['missingkey=error'],
        },
      },
      // and a kustomization listing a file its folder does not hold (SA018)
      { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: ['gone.yaml'] }],
      argoCdVersion: ArgoCdVersion.LATEST,
      repository: { isAudited: () => true, hasDirectory: (dir) => !dir.endsWith('.yaml'), hasFile: () => false, folderOf: (o) => (o.kind === 'Kustomization' ? 'apps/web' : undefined) },
    });
    const before = JSON.stringify([input, manual]);
    // WHEN
    const first = runRules(input, ALL_RULES);
    const second = runRules(input, ALL_RULES);
    const third = runRules(manual, ALL_RULES);
    // THEN nothing changed, each rule fired exactly once, and the results repeat
    expect(Object.isFrozen(input.application?.spec)).toBe(true);
    expect(JSON.stringify([input, manual])).toBe(before);
    // (a rule about Applications together, SA011, finds nothing one Application at a time)
    expect([...first, ...third].map((f) => f.rule.id).sort()).toEqual(ALL_RULES.filter((r) => !r.checkAcross).map((r) => r.id).sort());
    expect(described(second)).toEqual(described(first));
  });

  const garbage: [string, unknown][] = [
    ['an empty object', {}],
    ['a null spec', { spec: null, metadata: null }],
    ['a string spec', { spec: 'x' }],
    ['null fields', { spec: { project: null, source: null, sources: null, ignoreDifferences: null, syncPolicy: null } }],
    ['strings for lists', { spec: { sources: 'x', ignoreDifferences: 'x', syncPolicy: { automated: {}, syncOptions: 'x', retry: 'x' } } }],
    ['a string automated block', { spec: { syncPolicy: { automated: 'true' } } }],
    ['odd list items', { metadata: { annotations: 'x' }, spec: { sources: [null, 'x', 5, []], ignoreDifferences: [null, 5, []] } }],
    ['a list as the application', []],
  ];

  test.each(garbage)('never throws on %s', (_, application) => {
    // GIVEN
    const input = { application, resources: [], argoCdVersion: ArgoCdVersion.V2_14 } as unknown as RuleInput;
    // WHEN
    const findings = runRules(input);
    // THEN the missing project is still found, and every finding is about the input and points into it
    expect(described(findings)).toContain('SA005 /spec/project');
    for (const finding of findings) {
      expect(finding.object).toBe(application);
      expect(finding.path).toMatch(/^\/spec\//);
    }
  });

  test('reports only the missing project on an empty Application', () => {
    // GIVEN
    const app = {};
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA005 /spec/project']);
  });

  test.each([undefined, null])('reports nothing without an application (%j)', (application) => {
    // GIVEN
    const input = { application, resources: [deployment('checkout')], argoCdVersion: ArgoCdVersion.LATEST } as unknown as RuleInput;
    // WHEN
    const findings = runRules(input);
    // THEN
    expect(findings).toEqual([]);
  });
});
