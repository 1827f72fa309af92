import { stringify } from 'yaml';
import { application, deployment, RESPECTING, simulatorPerFile } from './support';
import { LiveScenario } from '../../src';

// The public API over text. Expected outcomes as in engine.test.ts (gitops-engine pkg/diff/diff.go;
// controller/sync.go normalizeTargetResources).

const sim = simulatorPerFile();

const APP = stringify(application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] }] }, RESPECTING));
const DESIRED = stringify(deployment());

describe('input', () => {
  test('fails when a document is not valid YAML, with [SAFE-102] and which input it was', () => {
    expect(() => sim().simulateDrift({ application: APP, desired: 'kind: Deployment\nmetadata: [unclosed' }))
      .toThrow(/^\[SAFE-102\] desired: YAML error at line 2, column \d+: /);
  });

  test('fails when a document holds several objects, with [SAFE-102]', () => {
    const twoDocuments = `${DESIRED}---\n${stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' } })}`;
    expect(() => sim().simulateDrift({ application: APP, desired: DESIRED, live: twoDocuments }))
      .toThrow(/^\[SAFE-102\] live: expected exactly one Kubernetes object \(with apiVersion and kind\), found 2 Kubernetes object\(s\)/);
  });

  test('fails when a document is not an object, or is empty, with [SAFE-102]', () => {
    expect(() => sim().simulateDrift({ application: '- a\n- b\n', desired: DESIRED })).toThrow(/^\[SAFE-102\] application: /);
    expect(() => sim().simulateDrift({ application: APP, desired: '' })).toThrow(/^\[SAFE-102\] desired: /);
  });

  test('accepts JSON as well as YAML, with the same result', () => {
    const live = LiveScenario.hpaScales(8).liveFrom(DESIRED);
    const fromYaml = sim().simulateDrift({ application: APP, desired: DESIRED, live });
    const fromJson = sim().simulateDrift({ application: JSON.stringify(application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] }] }, RESPECTING)), desired: JSON.stringify(deployment()), live });
    expect(fromJson).toEqual(fromYaml);
  });
});

describe('report', () => {
  test('liveAfterApply is a JSON text of the object after the apply', () => {
    // GIVEN an HPA-scaled Deployment with its replicas ignored and respected
    const report = sim().simulateDrift({ application: APP, desired: DESIRED, live: LiveScenario.hpaScales(8).liveFrom(DESIRED) });

    // THEN liveAfterApply parses to the Deployment with the kept replica count
    expect(typeof report.liveAfterApply).toBe('string');
    const obj = JSON.parse(report.liveAfterApply);
    expect(obj.kind).toBe('Deployment');
    expect(obj.metadata.name).toBe('web');
    expect(obj.spec.replicas).toBe(8);
    expect(report.outOfSync).toBe(false);
  });

  test('a missing live object: OutOfSync as a whole, and liveAfterApply is Git\'s object', () => {
    const report = sim().simulateDrift({ application: APP, desired: DESIRED });
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['']);
    expect(JSON.parse(report.liveAfterApply)).toEqual(deployment());
  });

  test('is deterministic: the same input twice gives equal reports, byte for byte', () => {
    // GIVEN one input with drift, ignored fields and an injected sidecar
    const live = LiveScenario.kubectlSetImage('web', 'registry.acme.internal/web:hotfix').liveFrom(DESIRED);
    const input = { application: APP, desired: DESIRED, live };

    // WHEN it is simulated twice
    const first = sim().simulateDrift(input);
    const second = sim().simulateDrift(input);

    // THEN the reports are equal, key order included
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(first.outOfSync).toBe(true);
  });

  test('does not depend on an earlier simulation (no state kept between calls)', () => {
    const quiet = { application: APP, desired: DESIRED, live: LiveScenario.unchanged().liveFrom(DESIRED) };
    const before = sim().simulateDrift(quiet);
    sim().simulateDrift({ application: APP, desired: DESIRED, live: LiveScenario.kubectlSetImage('web', 'x:1').liveFrom(DESIRED) });
    expect(sim().simulateDrift(quiet)).toEqual(before);
  });

  test('reports a failing jq expression as a warning, not an error', () => {
    const app = stringify(application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', jqPathExpressions: ['.metadata.name.first'] }] }));
    const report = sim().simulateDrift({ application: app, desired: DESIRED, live: LiveScenario.unchanged().liveFrom(DESIRED) });
    expect(report.outOfSync).toBe(false);
    expect(report.warnings.length).toBeGreaterThan(0);
    expect(report.warnings[0]).toContain('.metadata.name.first');
  });
});
