import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { ALL_RULES } from '../../src/rules/registry';
import { Finding, Rule } from '../../src/rules/types';

/** A partial manifest: objects merge into the base, other values replace, `undefined` removes the key. */
export type Overrides = { readonly [key: string]: unknown };

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(base: { [key: string]: unknown }, overrides: Overrides): { [key: string]: unknown } {
  const out = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) {
      delete out[key];
    } else if (isPlainObject(value) && isPlainObject(out[key])) {
      out[key] = merge(out[key] as { [key: string]: unknown }, value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * An Application that every rule accepts, with `overrides` merged in. Each call returns a fresh object.
 */
export function safeApplication(overrides: Overrides = {}): Manifest {
  const base = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'checkout', namespace: 'argocd' },
    spec: {
      project: 'payments',
      source: { repoURL: 'https://git.acme.internal/payments/checkout.git', path: 'deploy', targetRevision: 'main' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'checkout' },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
        syncOptions: ['CreateNamespace=true', 'PruneLast=true', 'RespectIgnoreDifferences=true'],
      },
    },
  };
  return merge(base, overrides);
}

/** A manifest the Application deploys. */
export function deployment(name: string, annotations: { [key: string]: string } = {}): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'checkout', annotations },
    spec: { template: { spec: { containers: [{ name, image: `acme.internal/${name}:1.0.0` }] } } },
  };
}

/** Runs every rule over one Application (and optional resources) for an Argo CD release. */
export function findingsFor(
  application: Manifest,
  argoCdVersion: ArgoCdVersion = ArgoCdVersion.LATEST,
  resources: readonly Manifest[] = [],
): Finding[] {
  return runRules({ application, resources, argoCdVersion }, ALL_RULES);
}

/** Each finding as `RULE-ID /json/pointer`, in the engine's order. */
export function described(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.rule.id} ${f.path}`);
}

/** Asserts the findings exactly, as `RULE-ID /json/pointer` with their messages, and that each is about `object` itself. */
export function expectFindings(findings: readonly Finding[], object: Manifest, expected: string[]): void {
  expect(described(findings)).toEqual(expected);
  // The messages, pinned in the reviewed snapshot of the calling test file.
  expect(findings.map((f) => `${f.rule.id} ${f.path}: ${f.message}`)).toMatchSnapshot('messages');
  for (const finding of findings) {
    expect(finding.object).toBe(object);
  }
}

/** Freezes a value and everything reachable from it, so that any write throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) {
      deepFreeze(child);
    }
    Object.freeze(value);
  }
  return value;
}

/** A copy of `base` with `overrides` merged in (see {@link Overrides}); `base` itself is left as it was. */
export function modified(base: Manifest, overrides: Overrides): Manifest {
  return merge(base as { [key: string]: unknown }, overrides);
}

/** An AppProject "payments" that deploys the checkout repository to the checkout namespace, with `overrides` merged in (lists replace). */
export function appProjectOf(overrides: Overrides = {}): Manifest {
  return modified({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: 'payments', namespace: 'argocd' },
    spec: {
      sourceRepos: ['https://git.acme.internal/payments/checkout.git'],
      destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'checkout' }],
    },
  }, overrides);
}

/** A manifest of any kind in the checkout namespace, with `overrides` merged in. */
export function manifest(apiVersion: string, kind: string, name: string, overrides: Overrides = {}): Manifest {
  return modified({ apiVersion, kind, metadata: { name, namespace: 'checkout' } }, overrides);
}

/** What one rule reports, through the engine, for an Application (or none) and the manifests it deploys. */
export function findingsOf(
  rule: Rule,
  resources: readonly Manifest[],
  application?: Manifest,
  argoCdVersion: ArgoCdVersion = ArgoCdVersion.LATEST,
): Finding[] {
  return runRules({ application, resources, argoCdVersion }, [rule]);
}

/** The one manifest of `kind` named `name` (or generated from the prefix `name`); throws when there is not exactly one. */
export function findManifest(manifests: readonly Manifest[], kind: string, name: string): Manifest {
  const found = manifests.filter((m) => {
    const metadata = m.metadata as { name?: unknown; generateName?: unknown } | undefined;
    return m.kind === kind && (metadata?.name === name || metadata?.generateName === name);
  });
  if (found.length !== 1) {
    throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  }
  return found[0];
}

/** `manifests` with `old` replaced by `replacement`, in place, everything else the same reference. */
export function replaced(manifests: readonly Manifest[], old: Manifest, replacement: Manifest): Manifest[] {
  return manifests.map((m) => (m === old ? replacement : m));
}
