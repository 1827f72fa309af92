import { loadJq } from 'jq-wasm';
import { parse } from 'yaml';
import { DriftSimulator, RenderedFile } from '../../src';
import { clone, isMap, Json, JsonMap } from '../../src/drift/json';
import { JqRunner } from '../../src/drift/normalize';

/**
 * The drift simulator, created once for the calling test file (loading the jq engine is the slow part).
 * Call at the top of a file or `describe`; use the returned getter inside tests.
 */
export function simulatorPerFile(): () => DriftSimulator {
  let sim: DriftSimulator | undefined;
  beforeAll(async () => {
    sim = await DriftSimulator.create();
  });
  return () => {
    if (!sim) {
      throw new Error('the simulator is created in beforeAll; call the getter inside a test');
    }
    return sim;
  };
}

/**
 * A real jq engine (jq-wasm) running `del(<expression>)`, as `DriftSimulator.create()` wires it, for the
 * unit tests of `normalizeIgnored`. Created once for the calling file.
 */
export function jqPerFile(): () => JqRunner {
  let runner: JqRunner | undefined;
  beforeAll(async () => {
    const jq = await loadJq();
    runner = {
      del: (value, expression) => {
        const outputs = jq.json(value as object, `del(${expression})`);
        return (outputs.length > 0 ? outputs[0] : value) as Json;
      },
    };
  });
  return () => {
    if (!runner) {
      throw new Error('the jq engine is loaded in beforeAll; call the getter inside a test');
    }
    return runner;
  };
}

/** The rendered manifest of one kind and name, as its YAML text. */
export function manifestText(files: readonly RenderedFile[], kind: string, name: string): string {
  const found = files.filter((f) => !f.path.endsWith('.md')).filter((f) => {
    const obj = parse(f.content);
    const metadata = isMap(obj?.metadata) ? obj.metadata : {};
    return obj?.kind === kind && (metadata.name === name || metadata.generateName === name);
  });
  if (found.length !== 1) {
    throw new Error(`expected one rendered ${kind} named ${name}, found ${found.length}: ${files.map((f) => f.path).join(', ')}`);
  }
  return found[0].content;
}

/** The rendered manifest of one kind and name, parsed. */
export function manifestObject(files: readonly RenderedFile[], kind: string, name: string): JsonMap {
  return parse(manifestText(files, kind, name)) as JsonMap;
}

/** The rendered Application named `name`, as YAML text. */
export function applicationText(files: readonly RenderedFile[], name: string): string {
  return manifestText(files, 'Application', name);
}

/** A copy of `obj` changed by `edit`. */
export function edited<T extends Json>(obj: T, edit: (copy: any) => void): T {
  const copy = clone(obj);
  edit(copy);
  return copy;
}

/**
 * A plain Argo CD Application for the engine's unit tests: automated sync with prune and selfHeal by
 * default, destination namespace `payments`. `spec` is merged shallowly into the spec.
 */
export function application(spec: JsonMap = {}, syncPolicy?: JsonMap): JsonMap {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'checkout', namespace: 'argocd' },
    spec: {
      project: 'payments',
      source: { repoURL: 'https://git.acme.internal/platform/gitops.git', path: 'deploy', targetRevision: 'main' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'payments' },
      syncPolicy: syncPolicy ?? { automated: { prune: true, selfHeal: true } },
      ...spec,
    },
  };
}

/** The `RespectIgnoreDifferences=true` sync policy with automated prune and selfHeal. */
export const RESPECTING: JsonMap = {
  automated: { prune: true, selfHeal: true },
  syncOptions: ['RespectIgnoreDifferences=true'],
};

/** A Deployment `web` in `payments` with one container `web`; `replicas` when given. */
export function deployment(replicas?: number): JsonMap {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'payments', labels: { app: 'web' } },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{
            name: 'web',
            image: 'registry.acme.internal/web:1.0.0',
            ports: [{ containerPort: 8080 }],
            env: [{ name: 'MODE', value: 'prod' }],
          }],
        },
      },
    },
  };
}

/** `obj` as a cluster returns it after a client-side apply: with the last-applied annotation of `applied`. */
export function withLastApplied(obj: JsonMap, applied: Json): JsonMap {
  return edited(obj, (copy) => {
    copy.metadata = copy.metadata ?? {};
    copy.metadata.annotations = {
      ...(copy.metadata.annotations ?? {}),
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(applied),
    };
  });
}
