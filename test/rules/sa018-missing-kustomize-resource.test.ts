import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { missingKustomizeResource } from '../../src/rules/sa018-missing-kustomize-resource';
import { Finding, RepositoryFacts } from '../../src/rules/types';

/** A repository holding these files (their folders too), whose kustomizations were read from the folders given. */
function repository(files: string[], folders: Map<Manifest, string>, knows?: (dir: string) => boolean): RepositoryFacts {
  const dirs = new Set(['.']);
  for (const f of files) {
    for (let d = f.split('/').slice(0, -1).join('/'); d !== ''; d = d.split('/').slice(0, -1).join('/')) {
      dirs.add(d);
    }
  }
  return {
    isAudited: () => true,
    hasDirectory: (dir) => dirs.has(dir),
    hasFile: (file) => files.includes(file),
    folderOf: (object) => folders.get(object),
    ...(knows ? { knowsDirectory: knows } : {}),
  };
}

function kustomization(fields: Record<string, unknown>): Manifest {
  return { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', ...fields };
}

function findings(k: Manifest, repo: RepositoryFacts | undefined): Finding[] {
  return runRules({ resources: [k], argoCdVersion: ArgoCdVersion.LATEST, repository: repo }, [missingKustomizeResource]);
}

const FILES = ['apps/web/base/deployment.yaml', 'apps/web/base/kustomization.yaml', 'apps/web/overlays/prod/kustomization.yaml', 'apps/web/overlays/prod/replicas.yaml'];

describe('SA018 missing-kustomize-resource', () => {
  test('passes when every listed file and folder is there, remote entries and inline patches aside', () => {
    // GIVEN an overlay listing its base folder, a remote base, a patch file and an inline patch
    const k = kustomization({
      resources: ['../../base', 'https://git.acme.internal/platform/bases//web?ref=v1', 'github.com/acme/bases/web?ref=v2'],
      patches: [{ path: 'replicas.yaml' }, { patch: 'apiVersion: apps/v1\nkind: Deployment\n' }],
      patchesStrategicMerge: ['replicas.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n'],
    });
    // WHEN / THEN
    expect(findings(k, repository(FILES, new Map([[k, 'apps/web/overlays/prod']])))).toEqual([]);
  });

  test('fails on each entry that names a file or folder the repository does not hold, at the entry', () => {
    // GIVEN a base renamed and a patch deleted
    const k = kustomization({ resources: ['../../bases', 'service.yaml'], components: ['../../components/tls'], patches: [{ path: 'gone.yaml' }] });
    // WHEN
    const found = findings(k, repository(FILES, new Map([[k, 'apps/web/overlays/prod']])));
    // THEN
    expect(found.map((f) => `${f.path} ${JSON.stringify(f.value)}`)).toEqual([
      '/resources/0 "../../bases"',
      '/resources/1 "service.yaml"',
      '/components/0 "../../components/tls"',
      '/patches/0/path "gone.yaml"',
    ]);
    expect(found[0].message).toBe('the kustomization lists "../../bases", which is not a file or folder of the repository: kustomize build fails, '
      + 'and every Application that renders this folder shows a ComparisonError and syncs nothing');
  });

  test('says nothing of a file a bootstrap script writes from a template beside it or in templates/, and fails on one without', () => {
    // GIVEN a bootstrap kustomization whose secrets a script renders from templates before `kubectl apply -k`
    const files = [...FILES, 'bootstrap/kustomization.yaml', 'bootstrap/templates/ssh-key.yaml.tpl', 'bootstrap/age-secret.yaml.j2', 'bootstrap/argocd.yaml',
      'bootstrap/decision-center.yaml_template'];
    const k = kustomization({ resources: ['argocd.yaml', 'ssh-key.yaml', 'age-secret.yaml', 'app-of-apps.yaml', 'decision-center.yaml'] });
    // WHEN
    const found = findings(k, repository(files, new Map([[k, 'bootstrap']])));
    // THEN only the entry with no template is reported
    expect(found.map((f) => `${f.path} ${JSON.stringify(f.value)}`)).toEqual(['/resources/3 "app-of-apps.yaml"']);
  });

  test('says nothing of an entry that is itself a template (a Backstage scaffolder skeleton), and fails on the plain entry beside it', () => {
    // GIVEN a skeleton's kustomization whose file names the scaffolder fills in, and one plain file that is not there
    const files = [...FILES, 'templates/app/skeleton/base/kustomization.yaml', 'templates/app/skeleton/base/nginx.yaml'];
    const k = kustomization({
      resources: ['nginx.yaml', '${{ values.name }}.yaml', '{{ .name }}-service.yaml', '${APP_NAME}/', 'overlays/<CLUSTER_NAME>', 'service.yaml'],
    });
    // WHEN
    const found = findings(k, repository(files, new Map([[k, 'templates/app/skeleton/base']])));
    // THEN only the plain entry is reported
    expect(found.map((f) => `${f.path} ${JSON.stringify(f.value)}`)).toEqual(['/resources/5 "service.yaml"']);
  });

  test('says nothing of a file beside a Chart.yaml that a plugin renders from the chart first, and fails on one elsewhere', () => {
    // GIVEN a chart whose kustomization lists the chart's rendering (helm template . > all.yaml), and a patch that is not there
    const files = [...FILES, 'charts/web/Chart.yaml', 'charts/web/kustomization.yaml', 'charts/web/templates/deployment.yaml'];
    const k = kustomization({ resources: ['all.yaml', './crds.yaml'], patches: [{ path: 'overlays/gone.yaml' }] });
    const plain = kustomization({ resources: ['all.yaml'] });
    // WHEN
    const found = findings(k, repository(files, new Map([[k, 'charts/web']])));
    // THEN the rendering is not reported, the patch in a subfolder is, and so is all.yaml where no chart is
    expect(found.map((f) => `${f.path} ${JSON.stringify(f.value)}`)).toEqual(['/patches/0/path "overlays/gone.yaml"']);
    expect(findings(plain, repository(files, new Map([[plain, 'apps/web/base']]))).map((f) => f.path)).toEqual(['/resources/0']);
  });

  test('says nothing of entries outside the repository or the audited paths, nor without an audit\'s facts', () => {
    // above the repository's root, or absolute
    const out = kustomization({ resources: ['../../../../../outside', '/abs/path'] });
    expect(findings(out, repository(FILES, new Map([[out, 'apps/web/overlays/prod']])))).toEqual([]);
    // an audit of apps/web alone knows nothing of apps/common
    const k = kustomization({ resources: ['../../../common/base'] });
    const folders = new Map([[k, 'apps/web/overlays/prod']]);
    expect(findings(k, repository(FILES, folders, (dir) => dir === 'apps/web' || dir.startsWith('apps/web/')))).toEqual([]);
    expect(findings(k, repository(FILES, folders)).map((f) => f.path)).toEqual(['/resources/0']);
    // a synth has no repository facts
    expect(findings(kustomization({ resources: ['gone.yaml'] }), undefined)).toEqual([]);
    // an object read from no kustomization file is not judged
    expect(findings(kustomization({ resources: ['gone.yaml'] }), repository(FILES, new Map()))).toEqual([]);
  });
});
