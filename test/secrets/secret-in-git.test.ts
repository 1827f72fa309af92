import { ApiObject } from 'cdk8s';
import { ArgoCdVersion } from '../../src';
import { auditFiles } from '../../src/audit/audit';
import { newApp } from '../support/app';

describe('a Secret with data, at synth and in audit', () => {
  test('fails synth with SA203, naming the key and not the value', () => {
    // GIVEN an app that deploys a raw Secret with a value
    const { gitops, app } = newApp();
    new ApiObject(app, 'db', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { password: 'aHVudGVyMg==' } });
    // WHEN synthesized THEN the rule stops it, without printing the value
    let message = '';
    try {
      gitops.renderFiles();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/SA203 secret-data-in-git \[error\] on Secret payments\/db/);
    expect(message).toContain('password');
    expect(message).not.toContain('aHVudGVyMg==');
  });

  test('a reasoned suppression lets a placeholder through', () => {
    const { gitops, app } = newApp();
    new ApiObject(app, 'db', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', annotations: { 'safe-argocd/suppress.SA203': 'an empty placeholder the operator fills in' } },
      data: { password: '' },
    });
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('is reported by audit, with the file and the line of the field', () => {
    // GIVEN a hand-written Secret in a repository
    const result = auditFiles([{ path: 'deploy/secret.yaml', content: Buffer.from('# db\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  token: abc\n') }], { argoCdVersion: ArgoCdVersion.LATEST });
    // THEN
    expect(result.findings.map((f) => [f.ruleId, f.location.file, f.location.line, f.pointer])).toEqual([['SA203', 'deploy/secret.yaml', 6, '/stringData']]);
    expect(JSON.stringify(result)).not.toContain('abc');
  });
});
