import { stringify } from 'yaml';
import { application, deployment, jqPerFile, RESPECTING, simulatorPerFile } from './support';
import { DriftSimulator, LiveScenario } from '../../src';
import { simulate } from '../../src/drift/engine';

// DriftSimulator wires a real jq engine (jq-wasm) into the engine; these tests need a jq expression that
// works, not only one that fails (drift-simulator.test.ts). Expected outcomes as in engine.test.ts.

const sim = simulatorPerFile();
const jq = jqPerFile();

const IMAGE = '/spec/template/spec/containers/0/image';
const DESIRED = stringify(deployment());

/** An Application ignoring `expression` on the Deployment `web`, with the given sync policy. */
function ignoringJq(expression: string, syncPolicy?: Record<string, any>): string {
  return stringify(application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'web', jqPathExpressions: [expression] }] }, syncPolicy));
}

describe('jqPathExpressions run by the jq engine create() loads', () => {
  test('.spec.replicas ignored and respected: an HPA-scaled Deployment is Synced, 8 is kept, no warning', () => {
    // GIVEN the HPA scaled live to 8 and replicas is ignored by a jq expression, respected
    const report = sim().simulateDrift({ application: ignoringJq('.spec.replicas', RESPECTING), desired: DESIRED, live: LiveScenario.hpaScales(8).liveFrom(DESIRED) });

    // THEN the expression ran: Synced and 8 survives the apply
    const { liveAfterApply, ...rest } = report;
    expect(rest).toEqual({
      outOfSync: false,
      differences: [],
      selfHeal: true,
      selfHealReverts: [],
      applyReverts: [],
      keptIgnored: ['/spec/replicas'],
      respectIgnoreDifferences: true,
      warnings: [],
    });
    expect(JSON.parse(liveAfterApply).spec.replicas).toBe(8);
  });

  test('an iterating expression over the containers hides a hand-set image; without RespectIgnoreDifferences a sync puts Git\'s back', () => {
    // GIVEN every container image ignored, not respected, and a hot-fixed image in live
    const live = LiveScenario.kubectlSetImage('web', 'registry.acme.internal/web:hotfix').liveFrom(DESIRED);
    const report = sim().simulateDrift({ application: ignoringJq('.spec.template.spec.containers[]?.image'), desired: DESIRED, live });

    // THEN it is Synced, yet the next sync reverts the image
    const { liveAfterApply, ...rest } = report;
    expect(rest).toEqual({
      outOfSync: false,
      differences: [],
      selfHeal: true,
      selfHealReverts: [],
      applyReverts: [IMAGE],
      keptIgnored: [],
      respectIgnoreDifferences: false,
      warnings: [],
    });
    expect(JSON.parse(liveAfterApply).spec.template.spec.containers[0].image).toBe('registry.acme.internal/web:1.0.0');
  });
});

describe('DriftSimulator.describe', () => {
  test('reads a report as safe-argocd simulate prints it', () => {
    const report = sim().simulateDrift({ application: ignoringJq('.spec.replicas', RESPECTING), desired: DESIRED, live: LiveScenario.hpaScales(8).liveFrom(DESIRED) });
    expect(DriftSimulator.describe('Deployment payments/web', report)).toBe([
      'Deployment payments/web: Synced',
      '  self-heal: nothing to revert',
      '  kept as live has it (ignored): /spec/replicas',
      '',
    ].join('\n'));
  });
});

describe('_simulateObjects', () => {
  test('gives the engine\'s result on parsed objects, liveAfterApply as an object', () => {
    // GIVEN parsed objects with a hand-set image
    const app = application();
    const live = JSON.parse(LiveScenario.kubectlSetImage('web', 'registry.acme.internal/web:hotfix').liveFrom(DESIRED));

    // WHEN simulated on objects
    const result = sim()._simulateObjects(app, deployment(), live);

    // THEN it is the engine's result with the same jq engine
    expect(result).toEqual(simulate(jq(), app, deployment(), live));
    expect(result.differences).toEqual([IMAGE]);
    expect(result.selfHealReverts).toEqual([IMAGE]);
    expect((result.liveAfterApply as any).spec.template.spec.containers[0].image).toBe('registry.acme.internal/web:1.0.0');
  });
});
