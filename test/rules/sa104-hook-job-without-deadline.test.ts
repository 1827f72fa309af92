import { renderedCheckout } from './checkout';
import {
  deployment, described, expectFindings, findingsOf, findManifest, manifest, modified, Overrides, replaced, safeApplication,
} from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { hookJobWithoutDeadline } from '../../src/rules/sa104-hook-job-without-deadline';

const HOOK = 'argocd.argoproj.io/hook';

/** A batch/v1 Job in the checkout namespace with these annotations and no deadline, with `overrides` merged in. */
function job(name: string, annotations: { [key: string]: string }, overrides: Overrides = {}): Manifest {
  return modified(manifest('batch/v1', 'Job', name, {
    metadata: { annotations },
    spec: {
      backoffLimit: 0,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'acme.internal/migrate:1.0.0' }] } },
    },
  }), overrides);
}

describe('SA104 hook-job-without-deadline', () => {
  test('passes when the PreSync hook Job has activeDeadlineSeconds 600', () => {
    // GIVEN
    const resources = [job('migrate', { [HOOK]: 'PreSync' }, { spec: { activeDeadlineSeconds: 600 } })];
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a Job that is no hook has no deadline', () => {
    // GIVEN Argo CD does not wait for it to finish
    const resources = [job('report', {})];
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a hook is a Deployment, which has no deadline to set', () => {
    // GIVEN
    const resources = [deployment('smoke', { [HOOK]: 'PostSync' })];
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the PreSync hook Job has no activeDeadlineSeconds', () => {
    // GIVEN
    const migrate = job('migrate', { [HOOK]: 'PreSync' });
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, [deployment('web'), migrate], safeApplication());
    // THEN
    expectFindings(findings, migrate, ['SA104 /spec/activeDeadlineSeconds']);
    expect(findings[0].value).toBeUndefined();
    expect(findings[0].message).toContain('(PreSync) has no deadline');
  });

  test('fails when activeDeadlineSeconds is 0', () => {
    // GIVEN
    const migrate = job('migrate', { [HOOK]: 'PreSync' }, { spec: { activeDeadlineSeconds: 0 } });
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, [migrate], safeApplication());
    // THEN
    expectFindings(findings, migrate, ['SA104 /spec/activeDeadlineSeconds']);
    expect(findings[0].value).toBe(0);
    expect(findings[0].message).toContain('an invalid (0) deadline');
  });

  test('fails when activeDeadlineSeconds is a string', () => {
    // GIVEN
    const migrate = job('migrate', { [HOOK]: 'PreSync' }, { spec: { activeDeadlineSeconds: '600' } });
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, [migrate], safeApplication());
    // THEN
    expectFindings(findings, migrate, ['SA104 /spec/activeDeadlineSeconds']);
    expect(findings[0].value).toBe('600');
  });

  test('fails when a helm.sh/hook Job has no deadline', () => {
    // GIVEN Argo CD runs Helm's pre-upgrade hook as PreSync
    const migrate = job('migrate', { 'helm.sh/hook': 'pre-upgrade' });
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, [migrate], safeApplication());
    // THEN the message names the phase Argo CD runs it in
    expectFindings(findings, migrate, ['SA104 /spec/activeDeadlineSeconds']);
    expect(findings[0].message).toContain('(PreSync)');
  });

  test('fails when a PostSync hook Pod has no deadline', () => {
    // GIVEN
    const pod = manifest('v1', 'Pod', 'smoke', {
      metadata: { annotations: { [HOOK]: 'PostSync' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'acme.internal/smoke:1.0.0' }] },
    });
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, [pod], safeApplication());
    // THEN
    expectFindings(findings, pod, ['SA104 /spec/activeDeadlineSeconds']);
  });

  test('passes when a Job marked Skip has no deadline, since Argo CD never applies it', () => {
    // GIVEN gitops-engine's hook.IsHook is false for a resource whose only hook type is Skip
    const resources = [job('manual', { [HOOK]: 'Skip' })];
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, resources, safeApplication());
    // THEN
    expect(described(findings)).toEqual([]);
  });

  test('passes when a Job\'s helm.sh/hook is crd-install, which Argo CD does not treat as a hook', () => {
    // GIVEN gitops-engine's helm IsHook: `helm.sh/hook` present and not "crd-install"; Argo CD does not wait for it
    const resources = [job('crds', { 'helm.sh/hook': 'crd-install' })];
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, resources, safeApplication());
    // THEN
    expect(described(findings)).toEqual([]);
  });

  test.each([
    ['an empty argocd.argoproj.io/hook', { [HOOK]: '' }],
    ['an Argo CD hook type that does not exist', { [HOOK]: 'Later' }],
    ['a Helm test hook', { 'helm.sh/hook': 'test' }],
  ])('passes when a Job without a deadline is a hook of no phase (%s), which Argo CD never runs', (_name, annotations) => {
    // GIVEN a hook (gitops-engine IsHook) whose hook types are empty, so syncPhases gives it no phase
    const resources = [job('never', annotations)];
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, resources, safeApplication());
    // THEN
    expect(described(findings)).toEqual([]);
  });

  test.each([
    ['a Helm post-delete hook', { 'helm.sh/hook': 'post-delete' }],
    ['a PreDelete hook', { [HOOK]: 'PreDelete' }],
    ['a PreSync and PostDelete hook', { [HOOK]: 'PostDelete,PreSync' }],
  ])('fails when %s Job has no deadline: the deletion, or the sync, waits for it', (_name, annotations) => {
    // GIVEN a Job Argo CD's controller runs when the app is deleted (and, for PreSync, in every sync)
    const cleanup = job('cleanup', annotations);
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, [cleanup], safeApplication());
    // THEN the message names the phases and what waits
    expectFindings(findings, cleanup, ['SA104 /spec/activeDeadlineSeconds']);
  });

  test.each([
    ['a PreDelete hook', { [HOOK]: 'PreDelete' }],
    ['a Helm pre-delete hook', { 'helm.sh/hook': 'pre-delete' }],
    ['a PostDelete in a list with PreDelete', { [HOOK]: 'PostDelete,PreDelete' }],
  ])('passes for Argo CD 3.2 when %s Job has no deadline: that release never runs it', (_name, annotations) => {
    // GIVEN a Job Argo CD 3.3 runs at deletion, which 3.2 keeps as a hook of no phase (controller/hook.go at v3.2.12)
    const cleanup = job('cleanup', annotations);
    // WHEN it is audited for 3.2 and for 3.3
    const old = findingsOf(hookJobWithoutDeadline, [cleanup], safeApplication(), ArgoCdVersion.V3_2);
    const current = findingsOf(hookJobWithoutDeadline, [cleanup], safeApplication(), ArgoCdVersion.V3_3);
    // THEN only 3.3 waits for it
    expect(described(old)).toEqual([]);
    expectFindings(current, cleanup, ['SA104 /spec/activeDeadlineSeconds']);
  });

  test('names only the phases the release runs: PostDelete in a list is not one for Argo CD 3.2', () => {
    // GIVEN a PreSync hook Job that also says PostDelete, in one list
    const both = job('both', { [HOOK]: 'PostDelete,PreSync' });
    // WHEN it is audited for 3.2 and 3.3
    const old = findingsOf(hookJobWithoutDeadline, [both], safeApplication(), ArgoCdVersion.V3_2);
    const current = findingsOf(hookJobWithoutDeadline, [both], safeApplication(), ArgoCdVersion.V3_3);
    // THEN both report it, for the sync, and the phases are those each release reads
    expect(old.map((f) => f.message)).toEqual(['hook Job (PreSync) has no deadline, so a stuck run blocks the sync forever']);
    expect(current.map((f) => f.message)).toEqual(['hook Job (PreSync,PostDelete) has no deadline, so a stuck run blocks the sync forever']);
  });

  test('passes on what the library renders for examples/checkout', () => {
    // GIVEN the real output: a MigrationHook, a PreSync Job
    const { application, resources, argoCdVersion } = renderedCheckout();
    findManifest(resources, 'Job', 'checkout-migrate-');
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, resources, application, argoCdVersion);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the hook Job the library renders for examples/checkout loses its deadline', () => {
    // GIVEN the real output, without the MigrationHook's activeDeadlineSeconds
    const { application, resources, argoCdVersion } = renderedCheckout();
    const original = findManifest(resources, 'Job', 'checkout-migrate-');
    const migrate = modified(original, { spec: { activeDeadlineSeconds: undefined } });
    // WHEN
    const findings = findingsOf(hookJobWithoutDeadline, replaced(resources, original, migrate), application, argoCdVersion);
    // THEN
    expectFindings(findings, migrate, ['SA104 /spec/activeDeadlineSeconds']);
  });
});
