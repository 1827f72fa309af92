import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { Json, JsonMap } from '../../src/drift/json';
import { Tracking } from '../../src/drift/tracking';
import { simulatorPerFile } from '../drift/support';

// Argo CD's own diff verdicts, transcribed from its tests (each case's meta.yaml names the file and test):
// the model must give the same Synced/OutOfSync for every case in scope. See docs/drift-conformance.md.

const sim = simulatorPerFile();
const ROOT = join(__dirname, 'drift');

interface Meta {
  readonly source: string;
  readonly expected: 'Synced' | 'OutOfSync';
  readonly tracking?: Tracking;
  readonly application?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly ignoreDifferences?: Json[];
    readonly syncOptions?: string[];
  };
  readonly outOfScope?: string;
}

interface Case {
  readonly name: string;
  readonly meta: Meta;
  readonly desired: Json;
  readonly live: Json;
}

function readCase(name: string): Case {
  const read = (file: string) => parse(readFileSync(join(ROOT, name, file), 'utf8')) as Json;
  return { name, meta: read('meta.yaml') as unknown as Meta, desired: read('desired.yaml'), live: read('live.yaml') };
}

function applicationOf(meta: Meta): JsonMap {
  const app = meta.application ?? {};
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: app.name ?? 'my-app', namespace: 'argocd' },
    spec: {
      project: 'default',
      source: { repoURL: 'https://git.example.com/apps.git', path: '.', targetRevision: 'HEAD' },
      destination: { server: 'https://kubernetes.default.svc', namespace: app.namespace ?? 'default' },
      ...(app.ignoreDifferences ? { ignoreDifferences: app.ignoreDifferences } : {}),
      syncPolicy: { syncOptions: app.syncOptions ?? [] },
    },
  };
}

function verdictOf(c: Case): string {
  const report = sim()._simulateObjects(applicationOf(c.meta), c.desired, c.live, {
    tracking: { method: c.meta.tracking ?? 'none', labelKey: 'app.kubernetes.io/instance' },
    trackingOnlyWhenLiveTracked: false,
  });
  return report.outOfSync ? 'OutOfSync' : 'Synced';
}

const cases = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort().map(readCase);
const inScope = cases.filter((c) => c.meta.outOfScope === undefined);

describe('drift conformance: Argo CD\'s verdicts on cases from its own tests', () => {
  test('GIVEN the transcribed cases WHEN each is read THEN it names its upstream source and a verdict', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const c of cases) {
      expect([c.name, /^argoproj\/argo-cd v\d+\.\d+\.\d+ \S+/.test(c.meta.source)]).toEqual([c.name, true]);
      expect([c.name, ['Synced', 'OutOfSync'].includes(c.meta.expected)]).toEqual([c.name, true]);
    }
  });

  test.each(inScope.map((c) => [c.name, c] as const))('GIVEN case %s WHEN simulated THEN the verdict is Argo CD\'s', (_name, c) => {
    expect(verdictOf(c)).toBe(c.meta.expected);
  });

  test('GIVEN every case WHEN simulated THEN the agreement figure is printed, and every in-scope case agrees', () => {
    const agreeing = cases.filter((c) => verdictOf(c) === c.meta.expected);
    const inScopeAgreeing = inScope.filter((c) => verdictOf(c) === c.meta.expected);
    const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
    // eslint-disable-next-line no-console
    console.log(`drift conformance: ${inScopeAgreeing.length}/${inScope.length} in-scope cases agree (${percent(inScopeAgreeing.length, inScope.length)}); `
      + `${agreeing.length}/${cases.length} of all cases (${percent(agreeing.length, cases.length)}), out of scope: `
      + `${cases.filter((c) => c.meta.outOfScope !== undefined).map((c) => c.name).join(', ') || 'none'}`);
    expect(inScopeAgreeing.map((c) => c.name)).toEqual(inScope.map((c) => c.name));
  });

  test('GIVEN the README and docs/drift-conformance.md WHEN read THEN they state the figure this suite measures', () => {
    const agreeing = inScope.filter((c) => verdictOf(c) === c.meta.expected).length;
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'drift-conformance.md'), 'utf8');
    expect(readme).toContain(`Argo CD's verdict in ${agreeing} of the ${inScope.length} cases in scope`);
    expect(readme).toContain(`${cases.length} cases transcribed from Argo CD`);
    expect(doc).toContain(`**${agreeing} / ${inScope.length} (`);
  });
});
