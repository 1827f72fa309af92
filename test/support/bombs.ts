/**
 * Input crafted to make a naive audit or simulation slow or crash: backtracking globs, long runs of
 * slashes, huge Lists and many autoscalers in one file. Shared by the hostile corpus tests and
 * bench/bombs.ts; every generator returns file path -> text under a repository root.
 */

/** The glob that backtracks exponentially in a regex engine, and a 63-character value it does not match. */
export const GLOB_BOMB = '*a*a*a*a*a*a*a*a*a*a*a*a*b';
export const GLOB_BOMB_VALUE = 'a'.repeat(63);

function application(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd' },
    spec: {
      project: 'bombs',
      destination: { server: 'https://kubernetes.default.svc', namespace: name },
      source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: `workloads/${name}` },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['RespectIgnoreDifferences=true'],
        retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
      },
      ...spec,
    },
  }, null, 1);
}

function project(spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: 'bombs', namespace: 'argocd' },
    spec: { sourceRepos: ['https://git.acme.internal/**'], destinations: [{ server: '*', namespace: '*' }], ...spec },
  }, null, 1);
}

/** An AppProject destination glob that backtracks, and an Application beside it whose namespace it does not match (SA202). */
export function globDestinationBomb(): Record<string, string> {
  return {
    'applications/bombs/project.json': project({ destinations: [{ server: '*', namespace: GLOB_BOMB }] }),
    'applications/bombs/app.json': application('dest', { destination: { server: 'https://kubernetes.default.svc', namespace: GLOB_BOMB_VALUE } }),
  };
}

/** A sourceRepos glob that backtracks against the Application's repoURL (SA202). */
export function globSourceRepoBomb(): Record<string, string> {
  return {
    'applications/bombs/project.json': project({ sourceRepos: [`https://git.acme.internal/${GLOB_BOMB}`] }),
    'applications/bombs/app.json': application('repo', { source: { repoURL: `https://git.acme.internal/${GLOB_BOMB_VALUE}`, targetRevision: 'main', path: 'workloads/repo' } }),
  };
}

/** ignoreDifferences group and kind globs that backtrack against an autoscaled custom workload (SA102). */
export function globIgnoreBomb(): Record<string, string> {
  const group = `${GLOB_BOMB_VALUE}.io`;
  return {
    'applications/bombs/app.json': application('ignore', {
      ignoreDifferences: [{ group: GLOB_BOMB, kind: GLOB_BOMB, jsonPointers: ['/spec/replicas'] }],
    }),
    'workloads/ignore/workload.json': JSON.stringify({ apiVersion: `${group}/v1`, kind: GLOB_BOMB_VALUE, metadata: { name: 'web', namespace: 'ignore' }, spec: {} }),
    'workloads/ignore/hpa.json': JSON.stringify({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'ignore' },
      spec: { scaleTargetRef: { apiVersion: `${group}/v1`, kind: GLOB_BOMB_VALUE, name: 'web' }, minReplicas: 2, maxReplicas: 5 },
    }),
  };
}

/**
 * A repoURL with a run of `slashes` slashes just before its last character, on which a trailing-slash regex
 * (`/\/+$/`) takes quadratic time; the source path too (SA202 must still answer).
 */
export function slashBomb(slashes = 300_000): Record<string, string> {
  return {
    'applications/bombs/project.json': project({ sourceRepos: ['https://git.acme.internal/allowed'] }),
    'applications/bombs/app.json': application('slashes', { source: { repoURL: `https://git.acme.internal/x${'/'.repeat(slashes)}y`, targetRevision: 'main', path: `workloads${'/'.repeat(slashes)}slashes` } }),
  };
}

/**
 * `pairs` Deployments that declare replicas and as many HPAs scaling them, in one file an Application deploys
 * (about 5 MB at 17,000): every pair is an SA101 and an SA102 finding.
 */
export function pairingBomb(pairs = 17_000): Record<string, string> {
  const docs: string[] = [];
  for (let i = 0; i < pairs; i++) {
    docs.push(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w${i}","namespace":"pairs"},"spec":{"replicas":2}}`);
    docs.push(`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"w${i}","namespace":"pairs"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"w${i}"}}}`);
  }
  return {
    'applications/bombs/app.json': application('pairs', {}),
    'workloads/pairs/all.yaml': `${docs.join('\n---\n')}\n`,
  };
}

/**
 * `count` AppProjects of one name in one file and as many Applications naming that project in another, deploying where
 * it does not allow (4.9 MB of Applications and 2 MB of AppProjects at 7,500): every Application is an SA202 finding
 * against the last of the projects. A naive audit gave each Application every project of that name to check, `count`
 * times `count` checks.
 */
export function projectBomb(count = 7_500): Record<string, string> {
  const projects: string[] = [];
  const applications: string[] = [];
  for (let i = 0; i < count; i++) {
    projects.push(JSON.stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name: 'bombs', namespace: 'argocd' },
      spec: { sourceRepos: ['https://git.acme.internal/platform/gitops.git'], destinations: [{ server: 'https://kubernetes.default.svc', namespace: `allowed-${i}` }] },
    }));
    applications.push(application(`app-${i}`, {}));
  }
  return {
    'projects/all.yaml': `${projects.join('\n---\n')}\n`,
    'applications/all.yaml': `${applications.join('\n---\n')}\n`,
  };
}

/**
 * An AppProject whose allow window, open every minute, lasts `digits` nines and no unit (about 300 KB at 300,000). A
 * duration reader that can read a run of digits in two ways tries every split of it: a minute on this one.
 */
export function durationBomb(digits = 300_000): Record<string, string> {
  return {
    'projects/bombs.json': project({
      destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'bombs' }],
      syncWindows: [{ kind: 'allow', schedule: '* * * * *', duration: `${'9'.repeat(digits)}x`, applications: ['*'] }],
    }),
  };
}

/**
 * A ConfigMap of `keys` data keys that also carries a custom tag, so that the careful parser reads it (about 1 MB at
 * 60,000): a duplicate-key check that compares each key with every one before it takes minutes on it.
 */
export function manyKeysBomb(keys = 60_000): Record<string, string> {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: keys, namespace: keys}', 'data:'];
  for (let i = 0; i < keys; i++) {
    lines.push(`  key-${i}: value-${i}`);
  }
  lines.push('  tagged: !custom value');
  return { 'workloads/keys/configmap.yaml': `${lines.join('\n')}\n` };
}

/**
 * An Application whose Helm values text sets `keys` keys to a private key header, one a line (about 1.4 MB at 25,000):
 * SA207 once looked each key up among all found before it.
 */
export function pemValuesBomb(keys = 25_000): Record<string, string> {
  const lines = Array.from({ length: keys }, (_, i) => `k${i}_password: -----BEGIN RSA PRIVATE KEY-----`);
  return {
    'applications/bombs/pem.json': application('pem', {
      source: { repoURL: 'https://charts.acme.internal', chart: 'db', targetRevision: '1.2.3', helm: { values: lines.join('\n') } },
    }),
  };
}

/**
 * `triples` Deployments that declare replicas, each referenced by an Argo Rollout through workloadRef (scaleDown
 * onsuccess) that also declares replicas, and an HPA scaling each Rollout, in one file an Application deploys (about
 * 4.8 MB at 9,000): every Deployment and every Rollout is an SA101 and an SA102 finding.
 */
export function rolloutPairingBomb(triples = 9_000): Record<string, string> {
  const docs: string[] = [];
  for (let i = 0; i < triples; i++) {
    docs.push(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w${i}","namespace":"pairs"},"spec":{"replicas":2}}`);
    docs.push(`{"apiVersion":"argoproj.io/v1alpha1","kind":"Rollout","metadata":{"name":"w${i}","namespace":"pairs"},"spec":{"replicas":2,"workloadRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"w${i}","scaleDown":"onsuccess"}}}`);
    docs.push(`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"w${i}","namespace":"pairs"},"spec":{"scaleTargetRef":{"apiVersion":"argoproj.io/v1alpha1","kind":"Rollout","name":"w${i}"}}}`);
  }
  return {
    'applications/bombs/app.json': application('pairs', {}),
    'workloads/pairs/all.yaml': `${docs.join('\n---\n')}\n`,
  };
}

/** A `kind: List` of `items` objects of made-up kinds (about 5 MB at 175,000), in a folder no Application deploys. */
export function hugeListBomb(items = 175_000): Record<string, string> {
  const lines = ['apiVersion: v1', 'kind: List', 'items:'];
  for (let i = 0; i < items; i++) {
    lines.push(`- {apiVersion: v1, kind: C${i}}`);
  }
  return { 'workloads/list/list.yaml': `${lines.join('\n')}\n` };
}

/**
 * `patterns` exclude globs (half plain folder names, half backtracking stars under a folder that is not there) and the
 * last, `dir7`, which leaves out one folder, over `folders` ConfigMaps three folders deep. Each pattern is matched as
 * `p` and `p/**`: a shared glob cache of fewer entries than that was cleared on every miss and recompiled every
 * pattern for every file.
 */
export function excludeBombPatterns(patterns = 600): string[] {
  const list: string[] = [];
  for (let i = 0; i < patterns - 1; i++) {
    list.push(i % 2 === 0 ? `vendor${i}` : `nomatch${i}/${'*a'.repeat(20)}/**`);
  }
  return [...list, 'dir7'];
}

/** The tree of {@link excludeBombPatterns}: `folders` ConfigMaps, and a `.safe-argocd.yaml` excluding with those patterns. */
export function excludeBomb(patterns = 600, folders = 200): Record<string, string> {
  const tree: Record<string, string> = { '.safe-argocd.yaml': `exclude: ${JSON.stringify(excludeBombPatterns(patterns))}\n` };
  for (let i = 1; i <= folders; i++) {
    tree[`dir${i}/sub/deeper/cm.yaml`] = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c${i}, namespace: n}\n`;
  }
  return tree;
}

/** An ApplicationSet of one list element, `spec` merged over a template every rule accepts, and the folder it deploys. */
function applicationSet(spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: '{{name}}' }): Record<string, string> {
  return {
    'applications/bombs/set.json': JSON.stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'bombs', namespace: 'argocd' },
      spec: {
        generators: [{ list: { elements: [{ name: 'a' }] } }],
        syncPolicy: { applicationsSync: 'create-update' },
        template: {
          metadata,
          spec: {
            project: 'bombs',
            destination: { server: 'https://kubernetes.default.svc', namespace: 'a' },
            source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'workloads/a' },
            syncPolicy: { automated: { prune: true, selfHeal: true }, retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } } },
          },
        },
        ...spec,
      },
    }, null, 1),
    'workloads/a/cm.json': JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'a' } }),
  };
}

/**
 * An ApplicationSet without goTemplate whose template holds a string of `opens` `{{` and no `}}`: whether Argo CD
 * renders it is asked with `/\{\{.*\}\}/`, quadratic in such a line.
 */
export function templatedBomb(opens = 80_000): Record<string, string> {
  return applicationSet({}, { name: '{{name}}', annotations: { note: '{{'.repeat(opens) } });
}

/** A goTemplate ApplicationSet with `spaces` spaces, then `x{{- .name }}`: a trailing-space regex on that text is quadratic. */
export function trimMarkerBomb(spaces = 100_000): Record<string, string> {
  return applicationSet({ goTemplate: true }, { name: '{{ .name }}', annotations: { note: `${' '.repeat(spaces)}x{{- .name }}` } });
}

/**
 * A goTemplate ApplicationSet whose annotation passes a 10-character parameter through `levels` replaces that
 * each make it ten times longer, printing only the length: 10^10 characters at 9, which no engine holds.
 */
export function replaceBomb(levels = 9): Record<string, string> {
  const bomb = applicationSet({ goTemplate: true }, { name: '{{ .name }}', annotations: { note: `{{ .s${' | replace "a" "aaaaaaaaaa"'.repeat(levels)} | len }}` } });
  const set = JSON.parse(bomb['applications/bombs/set.json']);
  set.spec.generators = [{ list: { elements: [{ name: 'a', s: 'a'.repeat(10) }] } }];
  return { ...bomb, 'applications/bombs/set.json': JSON.stringify(set, null, 1) };
}

/**
 * A goTemplate ApplicationSet of a matrix: a list of `elements` elements, then a git files generator over one JSON
 * file of 3,000 keys (40 KB). A matrix runs its second generator once per element; reading the file each time is
 * `elements` parses of it.
 */
export function matrixGitFilesBomb(elements = 200): Record<string, string> {
  const bomb = applicationSet({ goTemplate: true }, { name: '{{ .name }}-{{ .e }}' });
  const set = JSON.parse(bomb['applications/bombs/set.json']);
  set.spec.generators = [{
    matrix: {
      generators: [
        { list: { elements: Array.from({ length: elements }, (_, i) => ({ e: `e${i}` })) } },
        { git: { repoURL: 'https://git.acme.internal/platform/gitops.git', revision: 'main', files: [{ path: 'config/*.json' }] } },
      ],
    },
  }];
  const data: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) {
    data[`k${i}`] = 'v';
  }
  return { ...bomb, 'applications/bombs/set.json': JSON.stringify(set, null, 1), 'config/config.json': JSON.stringify({ name: 'a', data }) };
}

/**
 * A goTemplate ApplicationSet whose merge generator has `children` children, YAML aliases of one list of 2,000
 * elements: a 26 KB file at 700, each child within the Applications limit, 1.4 million parameter sets in all.
 */
export function mergeChildrenBomb(children = 700): Record<string, string> {
  const elements = Array.from({ length: 2000 }, (_, i) => `{k: e${i}}`).join(', ');
  const aliases = Array.from({ length: children }, () => '*g').join(', ');
  const set = [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: ApplicationSet',
    'metadata: {name: bombs, namespace: argocd}',
    'spec:',
    '  goTemplate: true',
    '  syncPolicy: {applicationsSync: create-update}',
    '  generators:',
    '    - merge:',
    '        mergeKeys: [k]',
    `        generators: [&g {list: {elements: [${elements}]}}, ${aliases}]`,
    '  template:',
    '    metadata: {name: \'{{ .k }}\'}',
    '    spec:',
    '      project: default',
    '      destination: {server: \'https://kubernetes.default.svc\', namespace: \'{{ .k }}\'}',
    '      source: {repoURL: \'https://git.acme.internal/platform/gitops.git\', targetRevision: main, path: \'workloads/{{ .k }}\'}',
  ];
  return { 'applications/bombs/set.yaml': `${set.join('\n')}\n` };
}

/**
 * One kustomization listing `apps` Applications and `patches` JSON patches of all of them (Kustomize's build applies
 * each patch to each object): `apps` times `patches` patch applications, which the audit's Kustomize build bounds.
 */
export function kustomizePatchBomb(apps = 1_000, patches = 1_000): Record<string, string> {
  const docs: string[] = [];
  for (let i = 0; i < apps; i++) {
    docs.push(`{"apiVersion":"argoproj.io/v1alpha1","kind":"Application","metadata":{"name":"a${i}","namespace":"argocd"},"spec":{"project":"p"}}`);
  }
  const patch = '  - target: {kind: Application}\n    patch: \'[{"op": "add", "path": "/spec/project", "value": "q"}]\'\n';
  return {
    'root/apps.yaml': `${docs.join('\n---\n')}\n`,
    'root/kustomization.yaml': `resources: [apps.yaml]\npatches:\n${patch.repeat(patches)}`,
  };
}

/**
 * A base of `apps` Applications that `overlays` overlays each list with a name suffix of their own: `apps` times
 * `overlays` Applications built, which the audit's Kustomize build bounds.
 */
export function kustomizeOverlayBomb(apps = 1_000, overlays = 100): Record<string, string> {
  const docs: string[] = [];
  for (let i = 0; i < apps; i++) {
    docs.push(`{"apiVersion":"argoproj.io/v1alpha1","kind":"Application","metadata":{"name":"a${i}","namespace":"argocd"},"spec":{"project":"p"}}`);
  }
  const tree: Record<string, string> = {
    'base/apps.yaml': `${docs.join('\n---\n')}\n`,
    'base/kustomization.yaml': 'resources: [apps.yaml]\n',
  };
  for (let i = 0; i < overlays; i++) {
    tree[`overlays/o${i}/kustomization.yaml`] = `resources: [../../base]\nnameSuffix: -o${i}\n`;
  }
  return tree;
}
