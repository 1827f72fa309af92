import { ExternalSource } from '../../src/application/external-source';
import { KustomizeOptions } from '../../src/application/kustomize-options';

describe('ExternalSource', () => {
  describe('gitPath', () => {
    test('keeps a relative directory', () => {
      // GIVEN a directory relative to the repository root
      // WHEN a source is made
      const source = ExternalSource.gitPath('deploy/overlays/prod');
      // THEN it is the path, with no chart
      expect(source.path).toBe('deploy/overlays/prod');
      expect(source.chart).toBeUndefined();
    });

    test.each([
      ['deploy/overlays/prod/', 'deploy/overlays/prod'],
      ['deploy//', 'deploy'],
      ['.', '.'],
      ['charts/..data', 'charts/..data'],
    ])('normalizes %p to %p', (given, expected) => {
      // GIVEN a path with trailing slashes (or a dotted name that is not "..")
      // WHEN a source is made
      // THEN trailing slashes are stripped and nothing else changes
      expect(ExternalSource.gitPath(given).path).toBe(expected);
    });

    test.each(['/abs', '/', '../x', 'deploy/../../x', 'deploy/..', '', '  '])('fails when the path is %p', (path) => {
      // GIVEN an absolute, escaping or empty path
      // WHEN a source is made
      const make = () => ExternalSource.gitPath(path);
      // THEN it is refused with the source code, naming the prop
      expect(make).toThrow(/\[SAFE-013\]/);
      expect(make).toThrow(/ExternalSource\.gitPath: path/);
    });
  });

  describe('helmChart', () => {
    test.each(['ingress-nginx', 'cert-manager', 'bitnami/redis', 'chart_1.x'])('keeps the chart name %p', (chart) => {
      // GIVEN a chart name
      // WHEN a source is made
      const source = ExternalSource.helmChart(chart);
      // THEN it is the chart, with no path
      expect(source.chart).toBe(chart);
      expect(source.path).toBeUndefined();
    });

    test.each(['', ' ', '-chart', 'has space', '../chart'])('fails when the chart is %p', (chart) => {
      // GIVEN something that is not a chart name
      // WHEN a source is made
      const make = () => ExternalSource.helmChart(chart);
      // THEN it is refused with the source code, naming the prop
      expect(make).toThrow(/\[SAFE-013\]/);
      expect(make).toThrow(/ExternalSource\.helmChart: chart/);
    });
  });

  describe('helmChart options', () => {
    test('keeps the checked options, and none when all are empty', () => {
      // GIVEN options with every field, and options with empty fields only
      const full = ExternalSource.helmChart('ingress-nginx', {
        releaseName: 'edge.eu-1',
        valueFiles: ['values-production.yaml'],
        valuesYaml: 'controller:\n  replicaCount: 2\n  extraArgs: [--v=2]\n  enabled: true\n',
        parameters: [{ name: 'a', value: '' }, { name: 'b', value: '1', forceString: true }],
      });
      const empty = ExternalSource.helmChart('ingress-nginx', { valueFiles: [], parameters: [], valuesYaml: '{}' });
      // THEN the full source holds them, the empty one none
      expect(full.helm).toEqual({
        releaseName: 'edge.eu-1',
        valueFiles: ['values-production.yaml'],
        valuesYaml: 'controller:\n  replicaCount: 2\n  extraArgs: [--v=2]\n  enabled: true\n',
        parameters: [{ name: 'a', value: '' }, { name: 'b', value: '1', forceString: true }],
      });
      expect(empty.helm).toBeUndefined();
      expect(ExternalSource.gitPath('deploy').helm).toBeUndefined();
    });

    test('a value file in a folder, or with a colon in its name, is kept', () => {
      expect(ExternalSource.helmChart('x', { valueFiles: ['ci/values-eu.yaml', 'values:eu.yaml'] }).helm?.valueFiles).toEqual(['ci/values-eu.yaml', 'values:eu.yaml']);
    });

    test('a release name of 53 characters is kept', () => {
      expect(ExternalSource.helmChart('x', { releaseName: 'a'.repeat(53) }).helm?.releaseName).toHaveLength(53);
    });

    test.each<[string, object, RegExp]>([
      ['releaseName has capitals', { releaseName: 'Edge_EU' }, /SAFE-038\] ExternalSource\.helmChart: options\.releaseName is "Edge_EU"; it must be a Helm release name.* Fix: use e\.g\. "edge-eu"/],
      ['releaseName is 54 characters', { releaseName: 'a'.repeat(54) }, /SAFE-038\].*options\.releaseName.*at most 53 characters/],
      ['releaseName is empty', { releaseName: '' }, /SAFE-038\].*options\.releaseName is ""/],
      ['releaseName ends with a dash', { releaseName: 'edge-' }, /SAFE-038\].*options\.releaseName is "edge-"/],
      ['a value file is absolute', { valueFiles: ['/etc/values.yaml'] }, /SAFE-038\] ExternalSource\.helmChart: options\.valueFiles\[0\] is "\/etc\/values\.yaml"; it must be a file inside the chart.* Fix: /],
      ['a value file climbs out', { valueFiles: ['ok.yaml', 'ci/../../secrets.yaml'] }, /SAFE-038\].*options\.valueFiles\[1\] is "ci\/\.\.\/\.\.\/secrets\.yaml"/],
      ['a value file is a URL', { valueFiles: ['https://example.com/values.yaml'] }, /SAFE-038\].*options\.valueFiles\[0\].*not a URL/],
      ['a value file is a Windows path', { valueFiles: ['ci\\values.yaml'] }, /SAFE-038\].*options\.valueFiles\[0\]/],
      ['a value file is empty', { valueFiles: [' '] }, /SAFE-038\].*options\.valueFiles\[0\] is " "/],
      ['a value file is given twice', { valueFiles: ['a.yaml', 'a.yaml'] }, /SAFE-011\].*options\.valueFiles\[1\] is "a\.yaml"; it is given twice/],
      ['valueFiles is not a list', { valueFiles: 'values.yaml' }, /SAFE-038\].*options\.valueFiles is "values\.yaml"; it must be a list/],
      ['a parameter name is empty', { parameters: [{ name: '', value: '1' }] }, /SAFE-038\] ExternalSource\.helmChart: options\.parameters\[0\]\.name is ""; it must be the key of a Helm value.* Fix: /],
      ['a parameter name is blank', { parameters: [{ name: 'a', value: '1' }, { name: '  ', value: '1' }] }, /SAFE-038\].*options\.parameters\[1\]\.name is "  "/],
      ['a parameter name holds "="', { parameters: [{ name: 'a=b', value: '1' }] }, /SAFE-038\].*options\.parameters\[0\]\.name is "a=b"/],
      ['a parameter value is a number', { parameters: [{ name: 'replicas', value: 3 }] }, /SAFE-038\].*options\.parameters\[0\]\.value is 3; it must be a string\. Fix: write the value as text, e\.g\. "3"/],
      ['a parameter is set twice', { parameters: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] }, /SAFE-011\].*options\.parameters\[1\] is "a"; it is given twice/],
      ['valuesYaml is a list', { valuesYaml: '- 1\n' }, /SAFE-038\].*options\.valuesYaml is \[1\]; it must be a map of Helm values/],
      ['valuesYaml is not YAML', { valuesYaml: 'a: [1\n' }, /SAFE-038\].*options\.valuesYaml is "text of 6 characters"; it must be YAML: /],
      ['valuesYaml holds null', { valuesYaml: 'controller:\n  resources: null\n' }, /SAFE-038\].*options\.valuesYaml\.controller\.resources is null; it must be a value: cdk8s leaves null out/],
      ['valuesYaml holds NaN', { valuesYaml: 'a: [1, .nan]\n' }, /SAFE-038\].*options\.valuesYaml\.a\.1 is NaN; it must be a finite number/],
      ['valuesYaml repeats a key', { valuesYaml: 'a: 1\na: 2\n' }, /SAFE-038\].*options\.valuesYaml .*must be YAML: /],
      ['valuesYaml holds an alias', { valuesYaml: 'a: &x {b: 1}\nc: *x\n' }, /SAFE-038\].*options\.valuesYaml .*must be plain values, without aliases/],
      ['valuesYaml is not text', { valuesYaml: { a: 1 } }, /SAFE-038\].*options\.valuesYaml .*must be YAML or JSON text of Helm values/],
    ])('fails when %s', (_name, options, message) => {
      expect(() => ExternalSource.helmChart('ingress-nginx', options as never)).toThrow(message);
    });
  });

  describe('gitPath Kustomize options', () => {
    const DIGEST = `sha256:${'ab'.repeat(32)}`;

    test('keeps the checked options, and none when all are empty', () => {
      // GIVEN options with every field, and options with empty fields only
      const given: KustomizeOptions = {
        images: [{ name: 'registry.acme.internal:5000/api', newTag: '1.4.2' }, { name: 'nginx', digest: DIGEST }],
        namePrefix: 'prod-',
        nameSuffix: '-eu',
        namespace: 'payments',
        commonLabels: { 'app.kubernetes.io/part-of': 'payments', 'env': '' },
        commonAnnotations: { 'acme.com/note': 'any text: even spaces' },
      };
      const full = ExternalSource.gitPath('deploy/overlays/prod', { kustomize: given });
      const empty = ExternalSource.gitPath('deploy', { kustomize: { images: [], commonLabels: {} } });
      // THEN the full source holds a frozen copy of them, the empty one none
      expect(full.kustomize).toEqual(given);
      expect(full.kustomize).not.toBe(given);
      expect(Object.isFrozen(full.kustomize?.images)).toBe(true);
      expect(empty.kustomize).toBeUndefined();
      expect(ExternalSource.gitPath('deploy').kustomize).toBeUndefined();
      expect(ExternalSource.helmChart('x').kustomize).toBeUndefined();
    });

    test.each<[string, object, RegExp]>([
      ['options is not an object', 'prod' as never, /SAFE-042\] ExternalSource\.gitPath: options is "prod"; it must be an object of GitPathOptions/],
      ['kustomize is a list', { kustomize: [] }, /SAFE-042\] ExternalSource\.gitPath: options\.kustomize is \[\]; it must be an object of KustomizeOptions/],
      ['an image name is empty', { kustomize: { images: [{ name: '', newTag: '1' }] } },
        /SAFE-042\] ExternalSource\.gitPath: options\.kustomize\.images\[0\]\.name is ""; it must be an image name.* Fix: give the image as the manifests name it/],
      ['an image name holds a tag', { kustomize: { images: [{ name: 'nginx:1.27', newTag: '1.28' }] } }, /SAFE-042\].*images\[0\]\.name is "nginx:1\.27"/],
      ['an image name holds "="', { kustomize: { images: [{ name: 'a=b', newTag: '1' }] } }, /SAFE-042\].*images\[0\]\.name is "a=b"/],
      ['an image name holds a space', { kustomize: { images: [{ name: 'ng inx', newTag: '1' }] } }, /SAFE-042\].*images\[0\]\.name is "ng inx"/],
      ['a new name holds a digest', { kustomize: { images: [{ name: 'nginx', newName: `nginx@${DIGEST}` }] } }, /SAFE-042\].*images\[0\]\.newName .*Fix: give the tag as newTag/],
      ['a tag and a digest are both given', { kustomize: { images: [{ name: 'nginx', newTag: '1.27.2', digest: DIGEST }] } },
        /SAFE-042\] ExternalSource\.gitPath: options\.kustomize\.images\[0\]\.digest is "sha256:abab.*"; it is given together with newTag "1\.27\.2".* Fix: give the digest alone/],
      ['a tag starts with "."', { kustomize: { images: [{ name: 'nginx', newTag: '.1' }] } }, /SAFE-042\].*images\[0\]\.newTag is "\.1"; it must be an image tag/],
      ['a tag is 129 characters', { kustomize: { images: [{ name: 'nginx', newTag: 'a'.repeat(129) }] } }, /SAFE-042\].*images\[0\]\.newTag/],
      ['a digest has no algorithm', { kustomize: { images: [{ name: 'nginx', digest: 'ab'.repeat(32) }] } }, /SAFE-042\].*images\[0\]\.digest .*must be an image digest/],
      ['an image override changes nothing', { kustomize: { images: [{ name: 'nginx' }] } }, /SAFE-042\].*images\[0\] is \{"name":"nginx"\}; it changes nothing/],
      ['an image is overridden twice', { kustomize: { images: [{ name: 'nginx', newTag: '1' }, { name: 'nginx', newTag: '2' }] } },
        /SAFE-011\].*options\.kustomize\.images\[1\]\.name is "nginx"; it is given twice/],
      ['images is not a list', { kustomize: { images: { name: 'nginx' } } }, /SAFE-042\].*options\.kustomize\.images .*must be a list/],
      ['namePrefix has capitals', { kustomize: { namePrefix: 'Prod_' } },
        /SAFE-042\] ExternalSource\.gitPath: options\.kustomize\.namePrefix is "Prod_"; it would make object names Kubernetes refuses.* Fix: use e\.g\. "prod-"/],
      ['namePrefix starts with "-"', { kustomize: { namePrefix: '-prod' } }, /SAFE-042\].*namePrefix is "-prod"/],
      ['namePrefix holds a dot', { kustomize: { namePrefix: 'prod.' } }, /SAFE-042\].*namePrefix is "prod\."/],
      ['nameSuffix ends with "-"', { kustomize: { nameSuffix: 'eu-' } }, /SAFE-042\].*nameSuffix is "eu-"; .*ending with a letter or digit/],
      ['namePrefix is 63 characters', { kustomize: { namePrefix: 'a'.repeat(63) } }, /SAFE-042\].*namePrefix .*at most 62 characters/],
      ['prefix and suffix leave no room', { kustomize: { namePrefix: `${'a'.repeat(40)}-`, nameSuffix: `-${'b'.repeat(30)}` } },
        /SAFE-042\].*nameSuffix .*leaves no room for a name/],
      ['namespace is not a DNS label', { kustomize: { namespace: 'Payments_Prod' } },
        /SAFE-042\] ExternalSource\.gitPath: options\.kustomize\.namespace is "Payments_Prod"; it must be a DNS-1123 label.* Fix: use e\.g\. "payments-prod"/],
      ['namespace has a dot', { kustomize: { namespace: 'payments.prod' } }, /SAFE-042\].*namespace is "payments\.prod"/],
      ['a label key has a space', { kustomize: { commonLabels: { 'part of': 'payments' } } },
        /SAFE-042\] ExternalSource\.gitPath: options\.kustomize\.commonLabels is "part of"; it has a key Kubernetes refuses/],
      ['a label key has an invalid prefix', { kustomize: { commonLabels: { 'Acme.com/team': 'payments' } } }, /SAFE-042\].*commonLabels is "Acme\.com\/team"/],
      ['a label key name is 64 characters', { kustomize: { commonLabels: { [`acme.com/${'a'.repeat(64)}`]: 'x' } } }, /SAFE-042\].*commonLabels is "acme\.com\/aaa/],
      ['a label value has a space', { kustomize: { commonLabels: { team: 'payments team' } } },
        /SAFE-042\].*options\.kustomize\.commonLabels\.team is "payments team"; it is a label value Kubernetes refuses.* Fix: shorten it, or put the text in commonAnnotations/],
      ['a label value is 64 characters', { kustomize: { commonLabels: { team: 'a'.repeat(64) } } }, /SAFE-042\].*commonLabels\.team/],
      ['a label value is a number', { kustomize: { commonLabels: { tier: 1 } } }, /SAFE-042\].*commonLabels\.tier is 1; it must be a string\. Fix: write it as text, e\.g\. "1"/],
      ['an annotation key ends with "/"', { kustomize: { commonAnnotations: { 'acme.com/': 'x' } } }, /SAFE-042\].*commonAnnotations is "acme\.com\/"; it has a key/],
      ['commonAnnotations is a list', { kustomize: { commonAnnotations: ['a'] } }, /SAFE-042\].*commonAnnotations is \["a"\]; it must be a map of strings/],
      ['a patch is empty', { kustomize: { patches: [{ patch: ' ' }] } }, /SAFE-042\] ExternalSource\.gitPath: options\.kustomize\.patches\[0\]\.patch is " "; it must be the patch as YAML or JSON text/],
      ['a patch is not YAML', { kustomize: { patches: [{ patch: 'a: [1', target: { kind: 'Deployment' } }] } }, /SAFE-042\].*patches\[0\]\.patch is "text of 5 characters"; it must be YAML: /],
      ['a patch is a number', { kustomize: { patches: [{ patch: '3', target: { kind: 'Deployment' } }] } }, /SAFE-042\].*patches\[0\]\.patch is 3; it must be a strategic merge patch/],
      ['a JSON 6902 patch has no target', { kustomize: { patches: [{ patch: '[{"op": "remove", "path": "/spec/replicas"}]' }] } },
        /SAFE-042\].*patches\[0\]\.target is missing; it must be given for a JSON 6902 patch.* Fix: give e\.g\. target: /],
      ['a JSON 6902 operation is unknown', { kustomize: { patches: [{ patch: '[{"op": "delete", "path": "/spec"}]', target: { kind: 'Deployment' } }] } },
        /SAFE-042\].*patches\[0\]\.patch\[0\] is \{"op":"delete","path":"\/spec"\}; it must be a JSON 6902 operation/],
      ['a JSON 6902 path is relative', { kustomize: { patches: [{ patch: '- {op: add, path: spec/x, value: 1}', target: { kind: 'Deployment' } }] } }, /SAFE-042\].*patches\[0\]\.patch\[0\]/],
      ['a strategic merge patch names no object and has no target', { kustomize: { patches: [{ patch: 'spec:\n  replicas: 2\n' }] } },
        /SAFE-042\].*patches\[0\]\.patch .*names no object.* Fix: add apiVersion, kind and metadata\.name to the patch, or give a target/],
      ['a target is empty', { kustomize: { patches: [{ patch: 'spec: {}', target: {} }] } }, /SAFE-042\].*patches\[0\]\.target is \{\}; it matches every object/],
      ['a target field is empty', { kustomize: { patches: [{ patch: 'spec: {}', target: { kind: '' } }] } }, /SAFE-042\].*patches\[0\]\.target\.kind is ""/],
      ['patches is not a list', { kustomize: { patches: 'spec: {}' } }, /SAFE-042\].*options\.kustomize\.patches is "spec: \{\}"; it must be a list/],
    ])('fails when %s', (_name, options, message) => {
      expect(() => ExternalSource.gitPath('deploy/overlays/prod', options as never)).toThrow(message);
    });
  });
});
