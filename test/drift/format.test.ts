import { DriftReport } from '../../src';
import { formatDriftJson, formatDriftText } from '../../src/drift/format';

const SYNCED: DriftReport = {
  outOfSync: false,
  differences: [],
  selfHeal: true,
  selfHealReverts: [],
  applyReverts: [],
  keptIgnored: [],
  respectIgnoreDifferences: true,
  liveAfterApply: '{"spec":{"replicas":8}}',
  warnings: [],
};

describe('formatDriftText', () => {
  test('a synced resource with nothing to revert', () => {
    expect(formatDriftText('Deployment shop/web', SYNCED)).toBe('Deployment shop/web: Synced\n  self-heal: nothing to revert\n');
  });

  test('out of sync with self-heal: what differs and what self-heal puts back, the whole object named as such', () => {
    const report = { ...SYNCED, outOfSync: true, differences: ['/spec/replicas', ''], selfHealReverts: ['/spec/replicas'] };
    expect(formatDriftText('Deployment shop/web', report)).toBe([
      'Deployment shop/web: OutOfSync',
      '  differs: /spec/replicas, (the whole object)',
      '  self-heal reverts: /spec/replicas',
      '',
    ].join('\n'));
  });

  test('out of sync with self-heal that reverts nothing', () => {
    const report = { ...SYNCED, outOfSync: true, differences: ['/metadata/labels/team'] };
    expect(formatDriftText('Deployment shop/web', report)).toContain('\n  self-heal reverts: nothing\n');
  });

  test('out of sync without self-heal: the difference stays', () => {
    const report = { ...SYNCED, outOfSync: true, selfHeal: false, differences: ['/spec/template/spec/containers/0/image'] };
    expect(formatDriftText('Deployment shop/web', report)).toBe([
      'Deployment shop/web: OutOfSync',
      '  differs: /spec/template/spec/containers/0/image',
      '  self-heal is off: the difference stays until someone syncs',
      '',
    ].join('\n'));
  });

  test('synced, but the next sync changes ignored fields: said, with the missing sync option when it is missing', () => {
    const report = { ...SYNCED, applyReverts: ['/spec/replicas'], respectIgnoreDifferences: false };
    expect(formatDriftText('Deployment shop/web', report)).toBe([
      'Deployment shop/web: Synced',
      '  not shown as drift, but the next sync of this resource changes: /spec/replicas (RespectIgnoreDifferences=true is not set)',
      '',
    ].join('\n'));
    expect(formatDriftText('Deployment shop/web', { ...report, respectIgnoreDifferences: true }))
      .toContain('changes: /spec/replicas\n');
  });

  test('kept ignored fields and warnings follow, one a line', () => {
    const report = { ...SYNCED, keptIgnored: ['/spec/replicas', '/metadata/annotations'], warnings: ['first', 'second'] };
    expect(formatDriftText('Deployment shop/web', report)).toBe([
      'Deployment shop/web: Synced',
      '  self-heal: nothing to revert',
      '  kept as live has it (ignored): /spec/replicas, /metadata/annotations',
      '  warning: first',
      '  warning: second',
      '',
    ].join('\n'));
  });
});

describe('formatDriftJson', () => {
  test('names the resource and gives liveAfterApply as an object', () => {
    const json = JSON.parse(formatDriftJson('Deployment shop/web', SYNCED));
    expect(json).toEqual({ resource: 'Deployment shop/web', ...SYNCED, liveAfterApply: { spec: { replicas: 8 } } });
    expect(formatDriftJson('x', SYNCED).endsWith('}\n')).toBe(true);
    expect(formatDriftJson('x', SYNCED)).toContain('\n  "resource": "x",\n');
  });
});
