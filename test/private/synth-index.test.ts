import { parse } from 'yaml';
import { buildFleet } from '../../examples/fleet/app';
import { SERVICES } from '../../examples/fleet/services';
import { AppOfApps, GitOpsApp, SafeApplication } from '../../src';
import { synthIndexOf } from '../../src/private/synth-index';
import { addConfigMap, appProps } from '../support/app';

function fileOf(gitops: GitOpsApp, path: string): string {
  return gitops.renderFiles().find((f) => f.path === path)!.content;
}

describe('the synth index', () => {
  test('a root rendered in a synth (from the index) equals the root rendered on its own (walking the tree)', () => {
    // GIVEN the fleet example, whose roots each deploy several Applications
    const gitops = buildFleet(SERVICES, { outdir: 'dist-fleet' });
    const root = gitops.node.findAll().find((c): c is AppOfApps => AppOfApps.isAppOfApps(c) && c.applicationName === 'payments-apps')!;
    // WHEN it is rendered outside a synth and in one
    const alone = root.resource.toJson();
    const inSynth = parse(fileOf(gitops, 'roots/Application.payments-apps.k8s.yaml'));
    // THEN both ignore the automated sync of the same children, in the same order
    expect(inSynth).toEqual(alone);
    expect(alone.spec.ignoreDifferences.map((e: any) => e.name)).toEqual(['checkout', 'refunds', 'payouts']);
  });

  test('a runbook written in a synth names the same root as the runbook rendered on its own', () => {
    // GIVEN the fleet example
    const gitops = buildFleet(SERVICES, { outdir: 'dist-fleet' });
    const refunds = gitops.node.findAll().find((c): c is SafeApplication => SafeApplication.isSafeApplication(c) && c.applicationName === 'refunds')!;
    // WHEN its runbook is rendered outside a synth and in one
    // THEN they are the same, and name the team's root
    expect(fileOf(gitops, 'runbooks/refunds.md')).toBe(refunds._runbook());
    expect(refunds._runbook()).toContain('`payments-apps`');
  });

  test('is released after a synth, also after one that fails', () => {
    // GIVEN an app that deploys a ConfigMap, and one that deploys nothing
    const good = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(good, 'checkout', appProps());
    addConfigMap(app, 'settings');
    const bad = new GitOpsApp({ outdir: 'dist' });
    const empty = new SafeApplication(bad, 'checkout', appProps());
    // WHEN both synthesize, the second failing
    good.renderFiles();
    expect(() => bad.renderFiles()).toThrow(/SAFE-/);
    // THEN no index is left behind
    expect(synthIndexOf(app)).toBeUndefined();
    expect(synthIndexOf(empty)).toBeUndefined();
  });

  test('an object added after a synth shows in the next synth', () => {
    // GIVEN an app that was synthesized once
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(gitops, 'checkout', appProps());
    addConfigMap(app, 'settings');
    gitops.renderFiles();
    // WHEN a ConfigMap is added and the app synthesizes again
    addConfigMap(app, 'flags');
    // THEN the new object is written
    expect(gitops.renderFiles().map((f) => f.path)).toContain('workloads/checkout/ConfigMap.flags.k8s.yaml');
  });
});
