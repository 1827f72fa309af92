/**
 * The files `safe-argocd new` writes, each one whole template. Values are checked before they get here
 * (names are DNS-1123 labels, keys environment variable names); strings that come from the user are
 * written as TypeScript string literals with `lit`.
 */

/** What a service's file is built from. */
export interface ServiceSpec {
  readonly service: string;
  /** The TypeScript name the service's file exports, e.g. `ordersApi` for `orders-api`. */
  readonly symbol: string;
  readonly project: string;
  readonly image: string;
  readonly hpa?: { readonly min: number; readonly max: number };
  readonly migration: boolean;
  readonly secretKey?: string;
}

/** What the app's own files are built from. */
export interface AppSpec {
  readonly repoUrl: string;
  /** The folder the synth writes, relative to the app. */
  readonly outdir: string;
  /** The repository root, relative to the app (`.` when the app is the root). */
  readonly repoRoot: string;
}

/** A TypeScript string literal holding `text`. */
export function lit(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, '\\\'').replace(/\n/g, '\\n')}'`;
}

/** main.ts: the project of each service's team, and one SafeApplication per service in the table. */
export function mainTs(app: AppSpec): string {
  return `import { GitOpsApp, GitOpsAppProps, SafeApplication, SafeProject } from 'cdk8s-safe-argocd';
import { SERVICES } from './services';

/** The repository Argo CD reads: the one this app's ${app.outdir}/ is committed to. */
const REPO = ${lit(app.repoUrl)};

/**
 * Every service of services/index.ts: one AppProject per team, allowing this repository and the namespaces of
 * the team's services only, and one SafeApplication per service, deploying its workloads to a namespace named
 * after it.
 */
export function buildApp(props: GitOpsAppProps = {}): GitOpsApp {
  const app = new GitOpsApp(props);

  const projects = new Map<string, SafeProject>();
  for (const name of new Set(SERVICES.map((s) => s.project))) {
    // A project id cannot clash with a service's: ids of services are DNS labels, which have no ':'.
    projects.set(name, new SafeProject(app, \`project:\${name}\`, {
      name,
      sourceRepos: [REPO],
      destinations: SERVICES.filter((s) => s.project === name).map((s) => ({ namespace: s.name })),
    }));
  }

  for (const service of SERVICES) {
    // Automated sync that always prunes and self-heals; the rules run over everything it deploys.
    const application = new SafeApplication(app, service.name, {
      name: service.name,
      project: projects.get(service.project)!,
      repoUrl: REPO,
      destinationNamespace: service.name,
    });
    service.addWorkloads(application);
  }
  return app;
}

// \`npm run synth\` (and \`cdk8s synth\`) run this from this folder.
if (require.main === module) {
  buildApp().synth();
}
`;
}

/** services/service.ts: what one service of the table is. */
export function serviceTypeTs(): string {
  return `import { SafeApplication } from 'cdk8s-safe-argocd';

/** One service: a SafeApplication of its own, deploying to a namespace named after it. */
export interface Service {
  /** Names the Application, its namespace, and by convention its Deployment and Service. */
  readonly name: string;
  /** The team's AppProject; services of one team share it. */
  readonly project: string;
  /** Adds what the service deploys to its Application. */
  addWorkloads(application: SafeApplication): void;
}
`;
}

/** The import line and the table entry `safe-argocd new` adds to services/index.ts for a service. */
export function serviceIndexEntry(spec: ServiceSpec): { readonly importStatement: string; readonly entry: string } {
  return { importStatement: `import { ${spec.symbol} } from './${spec.service}';`, entry: `  ${spec.symbol},` };
}

/** The line that opens the table in services/index.ts; `safe-argocd new` adds entries before the `];` after it. */
export const SERVICE_TABLE = 'export const SERVICES: Service[] = [';

/** services/index.ts: the table of services, with its first service. */
export function serviceIndexTs(first: ServiceSpec): string {
  const { importStatement, entry } = serviceIndexEntry(first);
  return `import { Service } from './service';
${importStatement}

/**
 * Every service of this app, one file each. \`safe-argocd new <service>\`, run in this app, writes the service's
 * file and adds it here.
 */
${SERVICE_TABLE}
${entry}
];
`;
}

/** services/<service>.ts: the workloads of one service. */
export function serviceTs(spec: ServiceSpec): string {
  const { service, symbol, project, hpa, migration, secretKey } = spec;
  const names = [
    ...(hpa ? ['Autoscaler'] : []),
    ...(secretKey ? ['ExternalSecret', 'ExternalSecretStore'] : []),
    ...(migration ? ['FailureNotice'] : []),
    ...(hpa ? ['HpaManagedDeployment'] : []),
    ...(migration ? ['MigrationHook'] : []),
    'SafeApplication',
    ...(secretKey ? ['SecretStoreKind'] : []),
  ];
  // cdk8s-plus for the plain Deployment and for reading the Secret.
  const kplus = !hpa || secretKey ? 'import * as kplus from \'cdk8s-plus-28\';\n' : '';
  const env = secretKey ? '\n        envVariables: env,' : '';
  const container = `{
        name: ${lit(service)},
        image: IMAGE,
        portNumber: 8080,${env}
        securityContext: { user: 10001, group: 10001 },
      }`;
  const secret = !secretKey ? '' : `
    // The value comes from the secret store; no secret value is ever in Git. Set the store and the path to yours.
    new ExternalSecret(application, 'secret', {
      name: ${lit(service)},
      store: ExternalSecretStore.fromName('platform-secrets', SecretStoreKind.CLUSTER_SECRET_STORE),
      data: [{ secretKey: ${lit(secretKey)}, remoteKey: ${lit(`${project}/${service}`)}, remoteProperty: ${lit(secretKey)} }],
    });
    const secret = kplus.Secret.fromSecretName(application, 'secret-ref', ${lit(service)});
    const env = { ${secretKey}: kplus.EnvValue.fromSecretValue({ secret, key: ${lit(secretKey)} }) };
`;
  const migrate = !migration ? '' : `
    // Runs before anything else of the app is applied; if it fails, the sync stops and the old code keeps running.
    new MigrationHook(application, 'migrate', {
      container: {
        image: IMAGE,
        command: ['./migrate'], // replace with the command that migrates your schema${env}
        securityContext: { user: 10001, group: 10001 },
      },
      // A failed migration stops every deploy of the service: page the on-call (your service and recipients).
      onFailure: FailureNotice.to('slack', [${lit(`${project}-oncall`)}]),
    });
`;
  const workload = hpa ? `
    // The HPA owns the replica count: no replicas in Git, and Argo CD leaves /spec/replicas alone.
    const web = new HpaManagedDeployment(application, 'web', {
      metadata: { name: ${lit(service)} },
      autoscaler: Autoscaler.hpa({ minReplicas: ${hpa.min}, maxReplicas: ${hpa.max}, cpuUtilizationPercent: 70 }),
      containers: [${container}],
    });
    web.deployment.exposeViaService({ name: ${lit(service)}, ports: [{ port: 80, targetPort: 8080 }] });
` : `
    // A fixed replica count, kept by self-heal. For an autoscaled one, use HpaManagedDeployment.
    const web = new kplus.Deployment(application, 'web', {
      metadata: { name: ${lit(service)} },
      replicas: 2,
      containers: [${container}],
    });
    web.exposeViaService({ name: ${lit(service)}, ports: [{ port: 80, targetPort: 8080 }] });
`;
  return `${kplus}${importLine(names, 'cdk8s-safe-argocd')}
import { Service } from './service';

/** The image to deploy. */
const IMAGE = ${lit(spec.image)};

/** The ${service} service of the ${project} project, in the namespace ${service}. */
export const ${symbol}: Service = {
  name: ${lit(service)},
  project: ${lit(project)},
  addWorkloads(application: SafeApplication): void {${secret}${migrate}${workload}  },
};
`;
}

/** main.test.ts: checks that hold for every service the table has, now and later. */
export function mainTestTs(app: AppSpec): string {
  return `import { buildApp } from './main';
import { SERVICES } from './services';

// GIVEN the app, rendered without writing: the rules run first and throw listing every violation.
const files = new Map(buildApp().renderFiles().map((f) => [f.path, f.content]));
const paths = [...files.keys()];

test.each(SERVICES.map((s) => [s.name, s.project]))('%s: its Application syncs, pruning and self-healing, the folder its workloads are written to', (name, project) => {
  const application = files.get(\`applications/\${project}/Application.\${name}.k8s.yaml\`) ?? '';
  const path = /\\n    path: (.*)\\n/.exec(application)?.[1] ?? '';
  expect(path.endsWith(\`${app.outdir}/workloads/\${name}\`)).toBe(true);
  expect(paths.filter((p) => p.startsWith(\`workloads/\${name}/\`)).length).toBeGreaterThan(0);
  expect(application).toContain(\`namespace: \${name}\\n\`);
  expect(application).toContain('selfHeal: true\\n');
});

test('each project is written once, and allows the namespaces of its services', () => {
  const projects = [...new Set(SERVICES.map((s) => s.project))];
  expect(paths.filter((p) => p.includes('/AppProject.'))).toEqual(projects.map((p) => \`applications/\${p}/AppProject.\${p}.k8s.yaml\`).sort());
  for (const service of SERVICES) {
    expect(files.get(\`applications/\${service.project}/AppProject.\${service.project}.k8s.yaml\`)).toContain(\`namespace: \${service.name}\\n\`);
  }
});

test('no Secret is in Git: secret values come from the secret store', () => {
  expect([...files.values()].filter((text) => /^kind: Secret$/m.test(text))).toEqual([]);
});

// An HPA owns the replica count of what it scales: Git declares none, and Argo CD ignores the live value.
const autoscaled = paths.filter((p) => /^workloads\\/[^/]+\\/HorizontalPodAutoscaler\\./.test(p));
if (autoscaled.length > 0) {
  test.each(autoscaled)('%s: its Deployment has no replicas in Git, and Argo CD leaves them alone', (hpa) => {
    const deployment = files.get(hpa.replace('/HorizontalPodAutoscaler.', '/Deployment.')) ?? '';
    const [, name] = /^workloads\\/([^/]+)\\//.exec(hpa)!;
    const application = [...files.entries()].find(([p]) => p.endsWith(\`/Application.\${name}.k8s.yaml\`))?.[1] ?? '';
    expect(deployment).toContain('kind: Deployment\\n');
    expect(deployment).not.toContain('replicas:');
    expect(application).toContain('- /spec/replicas\\n');
    expect(application).toContain('- RespectIgnoreDifferences=true\\n');
  });
}
`;
}

/** README.md of a new app. */
export function readmeMd(app: AppSpec, first: ServiceSpec): string {
  return `# GitOps tree

The Argo CD Applications of this repository's services, written with cdk8s-safe-argocd.

\`\`\`sh
npm install
npm run synth && npm run audit   # writes ${app.outdir}/ and checks it
npm test
\`\`\`

- \`services/<service>.ts\`: what one service deploys. \`services/index.ts\` lists them. Add one with
  \`npx safe-argocd new <service> --project <team>\` run in this folder: it writes the service's file and adds it
  to the list. Start with \`services/${first.service}.ts\`: set its image.
- \`main.ts\`: one AppProject per team (this repository, the namespaces of the team's services) and one
  Application per service, deploying to a namespace named after the service. \`REPO\` is the repository Argo CD
  reads.
- \`${app.outdir}/\`: what Argo CD reads. Commit it. Every \`source.path\` is relative to the root of the Git
  repository that holds this folder.
- \`${app.outdir}/applications/<team>/\`: the team's Applications and AppProject. Apply them once, or point an
  app-of-apps root at that folder.

\`npm run synth\` runs \`main.ts\` directly: when a rule fails, the previous \`${app.outdir}/\` stays as it was.
\`cdk8s synth\` works too, but removes \`${app.outdir}/\` before it runs the app.
`;
}

/** One import line, or one name list of at most 110 characters a line, as the examples write them. */
function importLine(names: string[], from: string): string {
  const line = `import { ${names.join(', ')} } from '${from}';`;
  if (line.length <= 120) {
    return line;
  }
  const rows: string[] = [];
  for (const name of names) {
    const last = rows.length - 1;
    if (last >= 0 && rows[last].length + name.length + 2 <= 110) {
      rows[last] += ` ${name},`;
    } else {
      rows.push(`  ${name},`);
    }
  }
  return ['import {', ...rows, `} from '${from}';`].join('\n');
}
