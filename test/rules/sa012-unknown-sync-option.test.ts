import { expectFindings, findingsOf, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { unknownSyncOption } from '../../src/rules/sa012-unknown-sync-option';

function withOptions(...syncOptions: unknown[]): Manifest {
  return safeApplication({ spec: { syncPolicy: { syncOptions } } });
}

describe('SA012 unknown-sync-option', () => {
  test('passes on every option Argo CD reads from an Application, spelt as it spells them', () => {
    // GIVEN
    const app = withOptions(
      'CreateNamespace=true', 'PruneLast=true', 'RespectIgnoreDifferences=true', 'ServerSideApply=true', 'ApplyOutOfSyncOnly=false',
      'Validate=false', 'SkipDryRunOnMissingResource=true', 'Replace=true', 'FailOnSharedResource=true',
      'PrunePropagationPolicy=background', 'ClientSideApplyMigration=false', 'Prune=confirm', 'Delete=false',
    );
    // WHEN
    const findings = findingsOf(unknownSyncOption, [], app, ArgoCdVersion.V3_5);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the Application has no sync options, and skips what is not a string', () => {
    expect(findingsOf(unknownSyncOption, [], safeApplication({ spec: { syncPolicy: { syncOptions: undefined } } }))).toEqual([]);
    expect(findingsOf(unknownSyncOption, [], withOptions(42, null))).toEqual([]);
  });

  test.each([
    ['respectIgnoreDifferences=true', 'RespectIgnoreDifferences=true'],
    ['RespectIgnoreDifferences=True', 'RespectIgnoreDifferences=true'],
    [' CreateNamespace=true', 'CreateNamespace=true'],
    ['CreateNamspace=true', 'CreateNamespace=true'],
    ['PruneLast=yes', undefined],
    ['ServerSideApply', undefined],
  ])('fails on %j, suggesting %j', (option, suggestion) => {
    // GIVEN
    const app = withOptions('PruneLast=true', option);
    // WHEN
    const findings = findingsOf(unknownSyncOption, [], app);
    // THEN
    expectFindings(findings, app, ['SA012 /spec/syncPolicy/syncOptions/1']);
    expect(findings[0].value).toBe(option);
    if (suggestion === undefined) {
      expect(findings[0].message).not.toContain('did you mean');
    } else {
      expect(findings[0].message).toContain(`did you mean ${JSON.stringify(suggestion)}?`);
    }
  });

  test('fails on Prune=false on an Application before Argo CD 3.4, where only the resource annotation works', () => {
    // GIVEN
    const app = withOptions('Prune=false');
    // WHEN
    const findings = findingsOf(unknownSyncOption, [], app, ArgoCdVersion.V3_3);
    // THEN
    expectFindings(findings, app, ['SA012 /spec/syncPolicy/syncOptions/0']);
    expect(findings[0].message).toContain('from Argo CD 3.4 (argo-cd #23370)');
    // and from 3.4 on it is read
    expect(findingsOf(unknownSyncOption, [], app, ArgoCdVersion.V3_4)).toEqual([]);
  });

  test('fails on Prune=False, suggesting Prune=false and saying when Argo CD reads it', () => {
    // GIVEN
    const app = withOptions('Prune=False');
    // WHEN
    const findings = findingsOf(unknownSyncOption, [], app, ArgoCdVersion.V3_0);
    // THEN
    expectFindings(findings, app, ['SA012 /spec/syncPolicy/syncOptions/0']);
    expect(findings[0].message).toContain('did you mean "Prune=false"? ("Prune=false" is read from an Application\'s sync options from Argo CD 3.4');
  });

  test('fails on Force=true, which Argo CD reads only from a resource annotation', () => {
    // GIVEN
    const app = withOptions('Force=true');
    // WHEN
    const findings = findingsOf(unknownSyncOption, [], app);
    // THEN
    expectFindings(findings, app, ['SA012 /spec/syncPolicy/syncOptions/0']);
  });

  test('fails on DisableClientSideApplyMigration=true, pointing to ClientSideApplyMigration=false, and on the latter before 3.1', () => {
    // GIVEN
    const docs = withOptions('DisableClientSideApplyMigration=true');
    const early = withOptions('ClientSideApplyMigration=false');
    // WHEN
    const findings = findingsOf(unknownSyncOption, [], docs, ArgoCdVersion.V3_1);
    // THEN
    expectFindings(findings, docs, ['SA012 /spec/syncPolicy/syncOptions/0']);
    expect(findings[0].message).toContain('did you mean "ClientSideApplyMigration=false"?');
    expect(findingsOf(unknownSyncOption, [], early, ArgoCdVersion.V3_0).map((f) => f.rule.id)).toEqual(['SA012']);
  });

  test('a long option is reported without a suggestion, in bounded time', () => {
    // GIVEN
    const app = withOptions('x'.repeat(100_000));
    // WHEN
    const findings = findingsOf(unknownSyncOption, [], app);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.message.includes('did you mean')])).toEqual([['SA012', false]]);
  });
});
