import { generatorParameters, Params, RepositoryView } from '../../src/audit/application-set';
import { Symbolic } from '../../src/core/go-template';

// The expected parameter sets are Argo CD's own (applicationset/generators/git_test.go, list_test.go, matrix_test.go
// and merge_test.go at v3.5.1), transcribed as facts.

const REPO = 'https://github.com/argoproj/argo-cd';
const LIMITS = { maxApplications: 100, maxRenderedChars: 1_000_000 };

/** A repository of these folders (and, for files, these files with contents). */
function repo(directories: string[], files: Record<string, string> = {}): RepositoryView {
  return {
    directories,
    files: Object.keys(files).sort(),
    read: (f) => (f in files ? Buffer.from(files[f]) : undefined),
    isAudited: (url) => url === REPO,
  };
}

function params(generators: unknown[], view: RepositoryView, goTemplate = false): Params[] {
  const result = generatorParameters({ spec: { goTemplate, generators } }, view, LIMITS);
  if ('stop' in result) {
    throw new Error(result.stop);
  }
  // Plain objects, to compare with toEqual.
  return result.params.map((p) => JSON.parse(JSON.stringify(p)) as Params);
}

const git = (spec: Record<string, unknown>) => ({ git: { repoURL: REPO, revision: 'HEAD', ...spec } });

describe('git directory generator parameters', () => {
  test('"It filters application according to the paths": p1/* and p1/*/* match one and two levels under p1', () => {
    const view = repo(['app1', 'p1/app2', 'p1/p2/app3', 'p1/p2/p3/app4']);
    expect(params([git({ directories: [{ path: 'p1/*' }, { path: 'p1/*/*' }] })], view)).toEqual([
      { 'path': 'p1/app2', 'path.basename': 'app2', 'path[0]': 'p1', 'path[1]': 'app2', 'path.basenameNormalized': 'app2' },
      { 'path': 'p1/p2/app3', 'path.basename': 'app3', 'path[0]': 'p1', 'path[1]': 'p2', 'path[2]': 'app3', 'path.basenameNormalized': 'app3' },
    ]);
  });

  test('"It filters application according to the paths with Exclude": an exclude wins whatever its place', () => {
    const view = repo(['app1', 'app2', 'p1/app2', 'p1/app3', 'p2/app3']);
    const expected = [
      { 'path': 'app1', 'path.basename': 'app1', 'path[0]': 'app1', 'path.basenameNormalized': 'app1' },
      { 'path': 'app2', 'path.basename': 'app2', 'path[0]': 'app2', 'path.basenameNormalized': 'app2' },
      { 'path': 'p2/app3', 'path.basename': 'app3', 'path[0]': 'p2', 'path[1]': 'app3', 'path.basenameNormalized': 'app3' },
    ];
    expect(params([git({ directories: [{ path: 'p1/*', exclude: true }, { path: '*' }, { path: '*/*' }] })], view)).toEqual(expected);
    expect(params([git({ directories: [{ path: '*' }, { path: '*/*' }, { path: 'p1/*', exclude: true }] })], view)).toEqual(expected);
  });

  test('pathParamPrefix names the parameters myRepo.path..., and basenameNormalized sanitizes app_3', () => {
    const view = repo(['app1', 'app_3', 'p1/app4']);
    expect(params([git({ directories: [{ path: '*' }], pathParamPrefix: 'myRepo' })], view)).toEqual([
      { 'myRepo.path': 'app1', 'myRepo.path.basename': 'app1', 'myRepo.path.basenameNormalized': 'app1', 'myRepo.path[0]': 'app1' },
      { 'myRepo.path': 'app_3', 'myRepo.path.basename': 'app_3', 'myRepo.path.basenameNormalized': 'app-3', 'myRepo.path[0]': 'app_3' },
    ]);
  });

  test('"Value variable interpolation": values are rendered with the folder\'s parameters', () => {
    const view = repo(['app1', 'p1/app2']);
    const values = { foo: 'bar', aaa: '{{ path[0] }}' };
    expect(params([git({ directories: [{ path: '*' }, { path: '*/*' }], values })], view)).toEqual([
      { 'values.foo': 'bar', 'values.aaa': 'app1', 'path': 'app1', 'path.basename': 'app1', 'path[0]': 'app1', 'path.basenameNormalized': 'app1' },
      { 'values.foo': 'bar', 'values.aaa': 'p1', 'path': 'p1/app2', 'path.basename': 'app2', 'path[0]': 'p1', 'path[1]': 'app2', 'path.basenameNormalized': 'app2' },
    ]);
  });

  test('with goTemplate, path is a map with segments', () => {
    const view = repo(['p1/app2']);
    expect(params([git({ directories: [{ path: 'p1/*' }] })], view, true)).toEqual([
      { path: { path: 'p1/app2', basename: 'app2', basenameNormalized: 'app2', segments: ['p1', 'app2'] } },
    ]);
  });
});

describe('git file generator parameters', () => {
  const files = {
    'cluster-config/production/config.json': JSON.stringify({
      cluster: { owner: 'john.doe@example.com', name: 'production', address: 'https://kubernetes.default.svc' },
      key1: 'val1',
      key2: { key2_1: 'val2_1', key2_2: { key2_2_1: 'val2_2_1' } },
      key3: 123,
    }),
    'cluster-config/staging/config.json': JSON.stringify({ cluster: { owner: 'foo.bar@example.com', name: 'staging', address: 'https://kubernetes.default.svc' } }),
    'cluster-config/staging/other.yaml': 'ignored: true\n',
  };

  test('"happy flow: create params from git files": keys flattened, values printed, path of the file\'s folder', () => {
    expect(params([git({ files: [{ path: '**/config.json' }] })], repo([], files))).toEqual([
      {
        'cluster.owner': 'john.doe@example.com',
        'cluster.name': 'production',
        'cluster.address': 'https://kubernetes.default.svc',
        'key1': 'val1',
        'key2.key2_1': 'val2_1',
        'key2.key2_2.key2_2_1': 'val2_2_1',
        'key3': '123',
        'path': 'cluster-config/production',
        'path.basename': 'production',
        'path[0]': 'cluster-config',
        'path[1]': 'production',
        'path.basenameNormalized': 'production',
        'path.filename': 'config.json',
        'path.filenameNormalized': 'config.json',
      },
      {
        'cluster.owner': 'foo.bar@example.com',
        'cluster.name': 'staging',
        'cluster.address': 'https://kubernetes.default.svc',
        'path': 'cluster-config/staging',
        'path.basename': 'staging',
        'path[0]': 'cluster-config',
        'path[1]': 'staging',
        'path.basenameNormalized': 'staging',
        'path.filename': 'config.json',
        'path.filenameNormalized': 'config.json',
      },
    ]);
  });

  test('an excluded file pattern removes what an included one matched', () => {
    const result = params([git({ files: [{ path: 'cluster-config/**/config.json' }, { path: 'cluster-config/staging/*', exclude: true }] })], repo([], files));
    expect(result.map((p) => p.path)).toEqual(['cluster-config/production']);
  });

  test('an empty file gives the path parameters alone; a file that is not YAML stops the generator', () => {
    expect(params([git({ files: [{ path: 'a/*.yaml' }] })], repo([], { 'a/empty.yaml': '' })).map((p) => p['path.filename'])).toEqual(['empty.yaml']);
    const broken = generatorParameters({ spec: { generators: [git({ files: [{ path: 'a/*.yaml' }] })] } }, repo([], { 'a/x.yaml': 'a: [' }), LIMITS);
    expect(broken).toEqual({ stop: expect.stringContaining('a/x.yaml, which is not a YAML or JSON mapping') });
  });

  test('a file of a list of objects gives one set each', () => {
    const view = repo([], { 'envs/list.yaml': '- env: dev\n- env: prod\n' });
    expect(params([git({ files: [{ path: 'envs/*.yaml' }] })], view).map((p) => p.env)).toEqual(['dev', 'prod']);
  });
});

describe('list, matrix, merge and cluster parameters', () => {
  test('list: values of an element become values.<key> without goTemplate', () => {
    expect(params([{ list: { elements: [{ cluster: 'eu', values: { env: 'prod' } }] } }], repo([]))).toEqual([{ 'cluster': 'eu', 'values.env': 'prod' }]);
  });

  test('list: elementsYaml adds its elements after the elements', () => {
    const generators = [{ list: { elements: [{ cluster: 'eu' }], elementsYaml: '- cluster: us\n- cluster: ap\n' } }];
    expect(params(generators, repo([]), true)).toEqual([{ cluster: 'eu' }, { cluster: 'us' }, { cluster: 'ap' }]);
  });

  test('list: a value that is not a string is an error without goTemplate, a value with it', () => {
    const generators = [{ list: { elements: [{ cluster: 'eu', replicas: 3 }] } }];
    expect(generatorParameters({ spec: { generators } }, repo([]), LIMITS)).toEqual({ stop: expect.stringContaining('replicas is not a string') });
    expect(params(generators, repo([]), true)).toEqual([{ cluster: 'eu', replicas: 3 }]);
  });

  test('matrix with goTemplate: maps merge deep, the first generator\'s values win', () => {
    const generators = [{
      matrix: {
        generators: [
          { list: { elements: [{ a: '1', nested: { x: 'first' } }] } },
          { list: { elements: [{ b: '2', nested: { x: 'second', y: 'kept' } }] } },
        ],
      },
    }];
    expect(params(generators, repo([]), true)).toEqual([{ a: '1', b: '2', nested: { x: 'first', y: 'kept' } }]);
  });

  test('matrix without goTemplate: the same key with two values is an error', () => {
    const generators = [{ matrix: { generators: [{ list: { elements: [{ a: '1' }] } }, { list: { elements: [{ a: '2' }] } }] } }];
    expect(generatorParameters({ spec: { generators } }, repo([]), LIMITS)).toEqual({ stop: expect.stringContaining('parameter a two values') });
  });

  test('merge: sets without a partner in the second generator stay; duplicates by the merge keys are an error', () => {
    const merge = (second: unknown[]) => [{ merge: { mergeKeys: ['name'], generators: [{ list: { elements: [{ name: 'a', v: '1' }, { name: 'b', v: '1' }] } }, { list: { elements: second } }] } }];
    expect(params(merge([{ name: 'b', v: '2', extra: 'x' }]), repo([]))).toEqual([{ name: 'a', v: '1' }, { name: 'b', v: '2', extra: 'x' }]);
    expect(generatorParameters({ spec: { generators: merge([{ name: 'b' }, { name: 'b' }]) } }, repo([]), LIMITS)).toEqual({ stop: expect.stringContaining('not unique') });
  });

  test('clusters: one symbolic set with goTemplate, none of the cluster\'s keys without it', () => {
    const go = generatorParameters({ spec: { goTemplate: true, generators: [{ clusters: {} }] } }, repo([]), LIMITS);
    expect('params' in go && go.params[0].name instanceof Symbolic).toBe(true);
    expect(params([{ clusters: { values: { env: 'prod' } } }], repo([]))).toEqual([{ 'values.env': 'prod' }]);
  });

  test('a selector keeps the sets whose flattened parameters match', () => {
    const generators = [{ list: { elements: [{ env: 'prod', n: 'a' }, { env: 'dev', n: 'b' }] }, selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] } }];
    expect(params(generators, repo([])).map((p) => p.n)).toEqual(['a']);
  });
});

describe('a matrix reads each git file and scans the folders once', () => {
  /** A repository view that counts how often each file is read and the folders are listed. */
  function counting(directories: string[], files: Record<string, string>) {
    const reads = new Map<string, number>();
    let listings = 0;
    const view = repo(directories, files);
    const counted: RepositoryView = {
      get directories() {
        listings++;
        return view.directories;
      },
      files: view.files,
      read: (f) => {
        reads.set(f, (reads.get(f) ?? 0) + 1);
        return view.read(f);
      },
      isAudited: view.isAudited,
    };
    return { view: counted, reads, listings: () => listings };
  }

  const elements = Array.from({ length: 20 }, (_, i) => ({ e: `e${i}` }));

  test('git files as the second generator of 20 parameter sets: each file is read once, every set gets its parameters', () => {
    // GIVEN a matrix of a 20-element list and a git files generator over two config files
    const { view, reads } = counting([], { 'cfg/a.json': '{"name": "a"}', 'cfg/b.json': '{"name": "b"}' });
    const generators = [{ matrix: { generators: [{ list: { elements } }, git({ files: [{ path: 'cfg/*.json' }] })] } }];

    // WHEN its parameters are generated
    const sets = params(generators, view, true);

    // THEN 40 sets, and each file was read once
    expect(sets).toHaveLength(40);
    expect(sets.filter((s) => s.name === 'b' && s.e === 'e19')).toHaveLength(1);
    expect([...reads.entries()]).toEqual([['cfg/a.json', 1], ['cfg/b.json', 1]]);
  });

  test('git directories as the second generator of 20 parameter sets: the folders are scanned once', () => {
    // GIVEN a matrix of a 20-element list and a git directories generator
    const { view, listings } = counting(['apps/a', 'apps/b', 'other'], {});
    const generators = [{ matrix: { generators: [{ list: { elements } }, git({ directories: [{ path: 'apps/*' }] })] } }];

    // WHEN its parameters are generated
    const sets = params(generators, view, true);

    // THEN 40 sets, from one listing of the folders
    expect(sets).toHaveLength(40);
    expect(listings()).toBe(1);
  });

  test('a second generator interpolated with the first\'s parameters scans once for each pattern it becomes', () => {
    // GIVEN a matrix whose git directories pattern is written with the list's parameter
    const { view, listings } = counting(['apps/a', 'apps/b', 'team/c'], {});
    const byTeam = [{ matrix: { generators: [{ list: { elements: [{ d: 'apps' }, { d: 'team' }, { d: 'apps' }] } }, git({ directories: [{ path: '{{ .d }}/*' }] })] } }];

    // WHEN its parameters are generated
    const sets = params(byTeam, view, true);

    // THEN each element gets its own folders, and the two patterns were scanned once each
    expect(sets.map((s) => (s.path as Params).path)).toEqual(['apps/a', 'apps/b', 'team/c', 'apps/a', 'apps/b']);
    expect(listings()).toBe(2);
  });
});

describe('the parameter sets of all generators together are bounded', () => {
  const merge = (children: number) => [{
    merge: { mergeKeys: ['k'], generators: Array.from({ length: children }, () => ({ list: { elements: Array.from({ length: 100 }, (_, i) => ({ k: `e${i}` })) } })) },
  }];

  test('a merge of 3 children of 100 sets each, within 100 Applications, is expanded', () => {
    // GIVEN a limit of 100 Applications / WHEN 3 x 100 sets are merged / THEN 100 sets
    expect(params(merge(3), repo([]), true)).toHaveLength(100);
  });

  test('a merge of 11 children of 100 sets each is too large: 1,100 sets produced, over 10 a possible Application', () => {
    // GIVEN a limit of 100 Applications / WHEN 11 x 100 sets are merged
    const result = generatorParameters({ spec: { goTemplate: true, generators: merge(11) } }, repo([]), LIMITS);

    // THEN too large, before the merge
    expect(result).toEqual({ stop: 'too large: its generators produce more than 1000 parameter sets in all' });
  });
});

describe('a git file the audit cannot read', () => {
  const files = (text: string) => generatorParameters({ spec: { goTemplate: true, generators: [git({ files: [{ path: 'cfg/*.json' }] })] } }, repo([], { 'cfg/c.json': text }), LIMITS);

  test('valid JSON nested 1,000 deep is too deep for the audit, not malformed', () => {
    // GIVEN a mapping nested 1,000 levels deep / WHEN a git files generator reads it / THEN the stop says how deep
    const deep = `{"name": "a", "x": ${'{"a": '.repeat(1000)}1${'}'.repeat(1000)}}`;
    expect(files(deep)).toEqual({ stop: 'its git generator reads cfg/c.json, which nests 1001 levels deep, too deep for the audit to read' });
  });

  test('malformed JSON is still not a mapping, which Argo CD fails on', () => {
    // GIVEN an unclosed mapping / WHEN read / THEN the stop says it is not a mapping
    expect(files('{"name": "a", "x": [1, 2')).toEqual({ stop: 'its git generator reads cfg/c.json, which is not a YAML or JSON mapping or list of mappings (Argo CD fails)' });
  });
});

describe('git generator patterns are Go\'s path.Match (directories) and git pathspecs (files), not shell globs', () => {
  const dirs = (path: string) => params([git({ directories: [{ path }] })], repo(['apps/a', 'apps/b', 'apps/c', 'apps/!x'])).map((p) => p.path);
  const files = (path: string) => params([git({ files: [{ path }] })], repo([], { 'cfg/a.json': '{}', 'cfg/b.json': '{}', 'cfg/sub/c.json': '{}' })).map((p) => p['path.filename']);

  test('directories: [^a] negates, [!a] is the set of ! and a, {a,b} is literal text', () => {
    expect(dirs('apps/[^a]*')).toEqual(['apps/b', 'apps/c', 'apps/!x']);
    expect(dirs('apps/[!a]*')).toEqual(['apps/a', 'apps/!x']);
    expect(dirs('apps/{a,b}')).toEqual([]);
  });

  test('files: * crosses folders, [^a] and [!a] both negate, {a,b} is literal text, a folder lists what is under it', () => {
    expect(files('cfg/*.json')).toEqual(['a.json', 'b.json', 'c.json']);
    expect(files('cfg/[^a].json')).toEqual(['b.json']);
    expect(files('cfg/[!a].json')).toEqual(['b.json']);
    expect(files('cfg/{a,b}.json')).toEqual([]);
    expect(files('cfg/sub')).toEqual(['c.json']);
  });
});

describe('git files generator under the new git file globbing (applicationsetcontroller.enable.new.git.file.globbing)', () => {
  const files = (path: string, newGitFileGlobbing: boolean) => params([git({ files: [{ path }] })],
    { ...repo([], { 'a.yaml': '{}', 'subdir/b.yaml': '{}', 'cfg/x/c.json': '{}', 'cfg/x/y/d.json': '{}' }), newGitFileGlobbing })
    .map((p) => `${p.path}/${p['path.filename']}`);

  test('Argo CD\'s LsFiles: *.yaml lists a.yaml and subdir/b.yaml by default, only a.yaml with the new globbing', () => {
    expect(files('*.yaml', false)).toEqual(['./a.yaml', 'subdir/b.yaml']);
    expect(files('*.yaml', true)).toEqual(['./a.yaml']);
  });

  test('with the new globbing, * stays in one folder, ** crosses any number, and {a,b} is one of them', () => {
    expect(files('cfg/*/*.json', true)).toEqual(['cfg/x/c.json']);
    expect(files('cfg/*/*.json', false)).toEqual(['cfg/x/c.json', 'cfg/x/y/d.json']);
    expect(files('cfg/**/*.json', true)).toEqual(['cfg/x/c.json', 'cfg/x/y/d.json']);
    expect(files('{subdir,cfg/x}/*.{yaml,json}', true)).toEqual(['cfg/x/c.json', 'subdir/b.yaml']);
  });

  test('an exclude is globbed the same way', () => {
    const view = { ...repo([], { 'cfg/x/c.json': '{}', 'cfg/x/y/d.json': '{}' }), newGitFileGlobbing: true };
    expect(params([git({ files: [{ path: 'cfg/**/*.json' }, { path: 'cfg/*/*.json', exclude: true }] })], view).map((p) => p['path.filename'])).toEqual(['d.json']);
  });
});
