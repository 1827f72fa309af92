import * as fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { buildFleet } from '../../examples/fleet/app';
import { SERVICES, ServiceSpec } from '../../examples/fleet/services';
import { ArgoCdVersion, RenderedFile } from '../../src';
import { auditFiles } from '../../src/audit/audit';
import { AuditFile } from '../../src/audit/types';
import { crdErrors } from '../support/crd';

/** Where `npm run example:fleet` writes the tree, relative to the repository root. */
const OUTDIR = 'dist-fleet';

/** The rendered files as the audit reads them from the repository: YAML only, paths from the repository root. */
function asAuditFiles(files: RenderedFile[]): AuditFile[] {
  return files
    .filter((f) => f.path.endsWith('.yaml'))
    .map((f) => ({ path: `${OUTDIR}/${f.path}`, content: Buffer.from(f.content, 'utf8') }));
}

function applicationsOf(files: RenderedFile[]): any[] {
  return files.filter((f) => /(^|\/)Application\.[^/]+\.k8s\.yaml$/.test(f.path)).map((f) => parse(f.content));
}

function render(services: ServiceSpec[]): RenderedFile[] {
  return buildFleet(services, { outdir: OUTDIR }).renderFiles();
}


/** The fleet's repository and images are example.com addresses on purpose: the audit accepts those (SA009), with the reason. */
const AUDIT_OPTIONS = {
  argoCdVersion: ArgoCdVersion.LATEST,
  suppressions: [{ ruleId: 'SA009', reason: 'the example\'s addresses are placeholders on purpose', paths: [], applications: [] }],
};

describe('examples/fleet', () => {
  // GIVEN the fleet's table: 8 services of 3 teams
  const files = render(SERVICES);
  const teams = [...new Set(SERVICES.map((s) => s.team))];

  test('writes a project folder and a root per team, and a workload folder per service', () => {
    // THEN the layout and one Application (an HPA-managed service) match the snapshot
    expect({
      'paths': files.map((f) => f.path),
      'applications/payments/Application.refunds.k8s.yaml': files.find((f) => f.path === 'applications/payments/Application.refunds.k8s.yaml')?.content,
    }).toMatchSnapshot();
  });

  test('each team\'s root deploys the team\'s folder and leaves each leaf\'s automated sync to its runbook', () => {
    for (const team of teams) {
      // WHEN the team's root is read
      const root = parse(files.find((f) => f.path === `roots/Application.${team}-apps.k8s.yaml`)!.content);
      // THEN it deploys applications/<team> and ignores the automated sync policy of exactly the team's services
      expect(root.spec.project).toBe('platform');
      expect(root.spec.source.path).toBe(`${OUTDIR}/applications/${team}`);
      expect(root.spec.ignoreDifferences.map((e: any) => e.name).sort())
        .toEqual(SERVICES.filter((s) => s.team === team).map((s) => s.name).sort());
    }
  });

  test('every service gets its workload, a Service and an ExternalSecret; its autoscaler and a PreSync Job exactly when the table asks', () => {
    for (const s of SERVICES) {
      const kinds = files.filter((f) => f.path.startsWith(`workloads/${s.name}/`)).map((f) => parse(f.content).kind).sort();
      // A Rollout keeps its pod template in a Deployment it references.
      const workload = !s.hpa ? ['Deployment'] : s.workload === 'Rollout' ? ['Rollout', 'Deployment'] : [s.workload ?? 'Deployment'];
      const autoscaler = !s.hpa ? [] : s.hpa.keda ? ['ScaledObject'] : ['HorizontalPodAutoscaler'];
      const expected = [...workload, 'ExternalSecret', 'Service', ...autoscaler, ...(s.migration ? ['Job'] : [])];
      expect(kinds).toEqual(expected.sort());
    }
    // The table holds each kind of workload and autoscaler.
    expect(new Set(SERVICES.map((s) => s.workload ?? 'Deployment'))).toEqual(new Set(['Deployment', 'StatefulSet', 'Rollout']));
    expect(SERVICES.some((s) => s.hpa?.keda)).toBe(true);
  });

  test('audits clean, with every Application paired with what it deploys', () => {
    // WHEN the rendered tree is audited as a repository
    const result = auditFiles(asAuditFiles(files), AUDIT_OPTIONS);
    // THEN nothing is found but the accepted placeholders, and no Application's source.path is empty (each would be a note)
    expect(result.findings).toEqual([]);
    expect(new Set(result.suppressed.map((f) => f.ruleId))).toEqual(new Set(['SA009']));
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.stats.applications).toBe(SERVICES.length + teams.length);
  });

  test('the audit reads each HPA-managed service with its own Application: without its ignore rule, SA102 names that Application', () => {
    // GIVEN the tree with ignoreDifferences removed from every leaf Application
    const stripped = files.map((f) => {
      if (!f.path.startsWith('applications/') || !f.path.includes('/Application.')) {
        return f;
      }
      const app = parse(f.content);
      delete app.spec.ignoreDifferences;
      return { path: f.path, content: stringify(app) };
    });
    // WHEN it is audited
    const result = auditFiles(asAuditFiles(stripped), AUDIT_OPTIONS);
    // THEN SA102 fires once per autoscaled workload (and a Rollout's template Deployment, which the Rollout scales down),
    // attributed to the service's own Application
    expect(result.findings.map((f) => [f.ruleId, f.application, f.object]).sort()).toEqual(
      SERVICES.filter((s) => s.hpa).flatMap((s) => (s.workload === 'Rollout'
        ? [['SA102', s.name, `Rollout ${s.team}/${s.name}`], ['SA102', s.name, `Deployment ${s.team}/${s.name}-template`]]
        : [['SA102', s.name, `${s.workload ?? 'Deployment'} ${s.team}/${s.name}`]])).sort(),
    );
  });

  test('every Application validates against the tightened v3.5.1 CRD', () => {
    for (const application of applicationsOf(files)) {
      expect(crdErrors('application', '3.5', application)).toEqual([]);
    }
  });

  test('for any table, every Application validates against the CRD and the tree audits clean (property, 25 runs)', () => {
    // GIVEN generated tables: unique names, a few teams, HPA or KEDA bounds or fixed replicas, any workload, migrations on or off
    const spec = (name: string) => fc.record({
      name: fc.constant(name),
      team: fc.constantFrom('payments', 'catalog', 'identity', 'search'),
      version: fc.constantFrom('1.0.0', '2.3.4', 'v0.1.0-rc.1'),
      port: fc.integer({ min: 1024, max: 65535 }),
      hpa: fc.option(fc.integer({ min: 1, max: 5 }).chain((min) => fc.record({
        min: fc.constant(min),
        max: fc.integer({ min, max: min + 20 }),
        cpuPercent: fc.option(fc.integer({ min: 10, max: 95 }), { nil: undefined }),
        keda: fc.boolean(),
      })), { nil: undefined }),
      workload: fc.option(fc.constantFrom('Deployment' as const, 'StatefulSet' as const, 'Rollout' as const), { nil: undefined }),
      replicas: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      migration: fc.boolean(),
      secrets: fc.uniqueArray(fc.constantFrom('db-password', 'api-key', 'jwt-signing-key'), { minLength: 1, maxLength: 3 }),
    });
    const tables = fc.sample(
      fc.uniqueArray(fc.stringMatching(/^[a-z]{2,12}$/), { minLength: 1, maxLength: 6 })
        .chain((names) => fc.tuple(...names.map(spec))),
      { numRuns: 25, seed: 7 },
    );
    for (const table of tables) {
      // WHEN the table is rendered and audited
      const rendered = render(table);
      // THEN every Application is valid, and the audit finds nothing and pairs every Application
      for (const application of applicationsOf(rendered)) {
        expect(crdErrors('application', '3.5', application)).toEqual([]);
      }
      const result = auditFiles(asAuditFiles(rendered), AUDIT_OPTIONS);
      expect(result.findings).toEqual([]);
      expect(result.notes).toEqual([]);
    }
  });
});
