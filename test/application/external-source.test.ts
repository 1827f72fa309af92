import { ExternalSource } from '../../src/application/external-source';

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
});
