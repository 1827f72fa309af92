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
});
