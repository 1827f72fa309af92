import { mkdtempSync, readdirSync, readFileSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { ApiObject } from 'cdk8s';
import { parse } from 'yaml';
import { ArgoProject, GitOpsApp, GitOpsAppProps, SafeApplication, SafeApplicationProps } from '../../src';
import { Manifest } from '../../src/core/manifest';

/** Props of a valid SafeApplication, for tests to override. */
export function appProps(overrides: Partial<SafeApplicationProps> = {}): SafeApplicationProps {
  return {
    name: 'checkout',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://git.acme.internal/platform/gitops.git',
    destinationNamespace: 'payments',
    ...overrides,
  };
}

/** A GitOpsApp with one SafeApplication that deploys one ConfigMap. */
export function newApp(overrides: Partial<SafeApplicationProps> = {}, gitopsProps: GitOpsAppProps = {}) {
  const gitops = new GitOpsApp({ outdir: 'dist', ...gitopsProps });
  const app = new SafeApplication(gitops, 'checkout', appProps(overrides));
  const config = addConfigMap(app, 'settings');
  return { gitops, app, config };
}

/** A ConfigMap inside `scope`, named `name`. */
export function addConfigMap(scope: SafeApplication, name: string, namespace?: string): ApiObject {
  return new ApiObject(scope, `cm-${name}${namespace ? `-${namespace}` : ''}`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(namespace ? { namespace } : {}) },
    data: { key: 'value' },
  });
}

/** The manifests `app` deploys, and its Application, as the audit reads them. */
export function renderedForAudit(app: SafeApplication): { application: Manifest; resources: Manifest[] } {
  const resources = app.node.findAll()
    .filter((c): c is ApiObject => ApiObject.isApiObject(c) && c !== ApiObject.of(app))
    .map((o) => o.toJson() as Manifest);
  return { application: applicationOf(app), resources };
}

/** The rendered Application manifest of `app`. */
export function applicationOf(app: SafeApplication): any {
  return app.resource.toJson();
}

/** A fresh temporary folder. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'safe-argocd-test-'));
}

/** Every file under `dir`, relative path to content, sorted. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) {
        walk(full);
      } else {
        out[relative(dir, full).split('\\').join('/')] = readFileSync(full, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

/** Parses one YAML document. */
export function yamlOf(text: string): any {
  return parse(text);
}
