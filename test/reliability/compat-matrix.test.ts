import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import {
  AppOfApps, ArgoCdVersion, Autoscaler, GitOpsApp, HpaManagedDeployment, MigrationHook, NotificationTrigger, RenderedFile, SafeApplication,
  SafeProject,
} from '../../src';
import { CRD_RELEASES, CRD_ROOT, crdErrors } from '../support/crd';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const IMAGE = 'registry.acme.internal/payments/checkout:1.42.0';

/**
 * The checkout example (examples/checkout/app.ts) with every Application rendered for one Argo CD release: its
 * project, the platform project and the app-of-apps root, and the checkout app with an autoscaled Deployment and a
 * migration.
 */
function checkoutFor(version: ArgoCdVersion): GitOpsApp {
  const app = new GitOpsApp({ outdir: 'dist' });
  const payments = new SafeProject(app, 'payments', {
    name: 'payments',
    sourceRepos: [REPO],
    destinations: [{ namespace: 'payments' }],
    developerGroups: ['payments-developers'],
    onCallGroups: ['payments-oncall'],
    notifications: [{ trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: ['payments-oncall'] }],
  });
  const platform = new SafeProject(app, 'platform', { name: 'platform', sourceRepos: [REPO], destinations: [{ namespace: 'argocd' }] });
  new AppOfApps(app, 'payments-apps', { name: 'payments-apps', project: platform, childProject: payments, repoUrl: REPO, argoCdVersion: version });
  const checkout = new SafeApplication(app, 'checkout', {
    name: 'checkout', project: payments, repoUrl: REPO, destinationNamespace: 'payments', argoCdVersion: version,
  });
  new MigrationHook(checkout, 'migrate', {
    container: { image: IMAGE, command: ['./checkout', 'migrate', '--to-latest'], securityContext: { user: 10001, group: 10001 } },
  });
  const web = new HpaManagedDeployment(checkout, 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler: Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }),
    containers: [{ name: 'web', image: IMAGE, portNumber: 8080, securityContext: { user: 10001, group: 10001 } }],
  });
  web.deployment.exposeViaService({ name: 'checkout', ports: [{ port: 80, targetPort: 8080 }] });
  return app;
}

/** The served schema of one CRD of one release, as the CRD file has it (not tightened). */
function crdSchema(kind: 'application' | 'appproject', release: string): any {
  const crd = parse(readFileSync(join(CRD_ROOT, CRD_RELEASES[release], `${kind}-crd.yaml`), 'utf8'));
  return crd.spec.versions.find((v: any) => v.served).schema.openAPIV3Schema;
}

/** Fields of ObjectMeta this library may write; a CRD schema leaves `metadata` to the API server. */
const OBJECT_META = new Set(['name', 'namespace', 'annotations', 'labels', 'finalizers']);

/**
 * Walks a manifest against a CRD schema and returns the paths of every field the schema does not have, and the
 * paths it checked. Maps (`additionalProperties`) and preserved subtrees are followed or accepted as the schema says.
 */
function walk(value: unknown, schema: any, path = ''): { unknown: string[]; checked: string[] } {
  const unknown: string[] = [];
  const checked: string[] = [path || '/'];
  const visit = (v: unknown, s: any, p: string) => {
    const r = walk(v, s, p);
    unknown.push(...r.unknown);
    checked.push(...r.checked);
  };
  if (schema?.['x-kubernetes-preserve-unknown-fields'] === true && !schema.properties) {
    return { unknown, checked };
  }
  if (Array.isArray(value)) {
    if (!schema?.items) {
      return { unknown: [`${path} (the schema has no list here)`], checked };
    }
    value.forEach((item, i) => visit(item, schema.items, `${path}/${i}`));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const p = `${path}/${key}`;
      if (path === '/metadata' && !schema?.properties) {
        if (!OBJECT_META.has(key)) {
          unknown.push(`${p} (not an ObjectMeta field this library writes)`);
        }
        checked.push(p);
      } else if (schema?.properties?.[key]) {
        visit(child, schema.properties[key], p);
      } else if (schema?.additionalProperties && typeof schema.additionalProperties === 'object') {
        visit(child, schema.additionalProperties, p);
      } else if (schema?.additionalProperties === true || schema?.['x-kubernetes-preserve-unknown-fields'] === true) {
        checked.push(p);
      } else {
        unknown.push(p);
      }
    }
  }
  return { unknown, checked };
}

/** The rendered manifests of one kind, by name, parsed from the files as Argo CD reads them (YAML 1.1). */
function manifests(files: RenderedFile[], kind: string): Map<string, any> {
  const out = new Map<string, any>();
  for (const f of files.filter((x) => !x.path.endsWith('.md'))) {
    const doc = parse(f.content, { version: '1.1' });
    if (doc.kind === kind) {
      out.set(doc.metadata.name, doc);
    }
  }
  return out;
}

const MATRIX = ArgoCdVersion.all().map((v) => [v.version, v] as const);

/** The releases that have `automated.enabled`, as the CRDs show (written out here, not read from the feature table). */
const WITH_ENABLED = ['3.1', '3.2', '3.3', '3.4', '3.5'];

describe('the compatibility matrix', () => {
  test('has one row per release ArgoCdVersion.all() knows, every minor from 2.14 to 3.5, each with its own CRDs', () => {
    // GIVEN the releases the library renders for, and the CRD folders of test/support/crd.ts
    // WHEN they are compared
    // THEN a release added to one and not the other fails here
    expect(MATRIX.map(([release]) => release)).toEqual(['2.14', '3.0', '3.1', '3.2', '3.3', '3.4', '3.5']);
    expect(Object.keys(CRD_RELEASES)).toEqual(MATRIX.map(([release]) => release));
    expect(new Set(Object.values(CRD_RELEASES)).size).toBe(MATRIX.length);
  });
});

describe('the checkout app across Argo CD releases', () => {
  // GIVEN the same app synthesized once for each supported release
  const rendered = new Map(MATRIX.map(([release, v]) => [release, checkoutFor(v).renderFiles()]));

  test('renders for every supported release with two Applications and two AppProjects each', () => {
    // THEN every release passed every rule (renderFiles threw for none) and has the same objects
    expect([...rendered.keys()]).toEqual(MATRIX.map(([release]) => release));
    for (const files of rendered.values()) {
      expect([...manifests(files, 'Application').keys()].sort()).toEqual(['checkout', 'payments-apps']);
      expect([...manifests(files, 'AppProject').keys()].sort()).toEqual(['payments', 'platform']);
    }
  });

  test.each(MATRIX)('%s: every Application validates against that release\'s tightened Application CRD', (release) => {
    // WHEN the Applications are read back THEN they validate against the CRD of their release
    const applications = [...manifests(rendered.get(release)!, 'Application').values()];
    expect(applications).toHaveLength(2);
    for (const application of applications) {
      expect(crdErrors('application', release, application)).toEqual([]);
    }
  });

  test.each(MATRIX)('%s: every AppProject validates against that release\'s tightened AppProject CRD', (release) => {
    // WHEN the AppProjects are read back THEN they validate against the CRD of the release
    const projects = [...manifests(rendered.get(release)!, 'AppProject').values()];
    expect(projects).toHaveLength(2);
    for (const project of projects) {
      expect(crdErrors('appproject', release, project)).toEqual([]);
    }
  });

  test.each(MATRIX)('%s: automated.enabled is written from 3.1 on, and nowhere before', (release) => {
    // THEN the automated block is the hardened one, with enabled only where the release has the field
    for (const application of manifests(rendered.get(release)!, 'Application').values()) {
      const automated = application.spec.syncPolicy.automated;
      expect(automated).toEqual({ prune: true, selfHeal: true, allowEmpty: false, ...(WITH_ENABLED.includes(release) ? { enabled: true } : {}) });
    }
  });

  test.each(MATRIX)('%s: every field of every Application and AppProject exists in that release\'s CRD schema', (release) => {
    // WHEN each manifest is walked against the (untightened) schema of its release
    for (const [kind, crd] of [['Application', 'application'], ['AppProject', 'appproject']] as const) {
      const schema = crdSchema(crd, release);
      for (const manifest of manifests(rendered.get(release)!, kind).values()) {
        const { unknown, checked } = walk(manifest, schema);
        // THEN no field is unknown to that release, and the walk reached the leaves
        expect(unknown).toEqual([]);
        expect(checked.length).toBeGreaterThan(10);
      }
    }
    const checkout = manifests(rendered.get(release)!, 'Application').get('checkout');
    expect(walk(checkout, crdSchema('application', release)).checked).toEqual(expect.arrayContaining([
      '/spec/syncPolicy/retry/backoff/maxDuration', '/spec/ignoreDifferences/0/jsonPointers/0', '/metadata/annotations',
    ]));
  });

  test('the walk is not vacuous: an Application for 3.5 uses one field the 2.14 and 3.0 schemas lack, automated.enabled', () => {
    // GIVEN the 3.5 Applications WHEN walked against older schemas THEN exactly that field is reported, per Application
    const latest = manifests(rendered.get('3.5')!, 'Application');
    for (const release of ['2.14', '3.0']) {
      const schema = crdSchema('application', release);
      for (const application of latest.values()) {
        expect(walk(application, schema).unknown).toEqual(['/spec/syncPolicy/automated/enabled']);
        expect(crdErrors('application', release, application).join('\n')).toContain('enabled');
      }
    }
    expect(walk({ spec: { syncPolicy: { automated: { selfheal: true } } } }, crdSchema('application', '3.5')).unknown)
      .toEqual(['/spec/syncPolicy/automated/selfheal']);
  });

  test('apart from automated.enabled, every release gets the same tree, byte for byte', () => {
    // THEN the files of each release equal the 2.14 ones once `enabled` is removed from the Applications and from the
    // restore command of the runbooks (which sets the whole declared policy, so it follows the release too)
    const strip = (files: RenderedFile[]) => files.map((f) => ({ path: f.path, content: f.content.replace(/^\s+enabled: true\n/gm, '').replace(/"enabled":true,/g, '') }));
    const base = strip(rendered.get('2.14')!);
    for (const [release, files] of rendered) {
      expect([release, strip(files)]).toEqual([release, base]);
    }
    // and the releases with the same fields get the very same files
    expect(rendered.get('3.0')).toEqual(rendered.get('2.14'));
    for (const release of WITH_ENABLED) {
      expect([release, rendered.get(release)]).toEqual([release, rendered.get('3.1')]);
    }
    expect(rendered.get('3.1')).not.toEqual(rendered.get('3.0'));
  });
});
