import { ArgoCdVersion, BreakGlass } from '../../src';
import { newApp, yamlOf } from '../support/app';
import { crdErrors } from '../support/crd';

const REASON_ANNOTATION = 'safe-argocd/break-glass-reason';
const EXPIRES_ANNOTATION = 'safe-argocd/break-glass-expires';
const TICKET_ANNOTATION = 'safe-argocd/break-glass-ticket';
const FUTURE = '2999-12-31';

/** A valid break-glass, with `overrides`. */
function breakGlass(overrides: Partial<BreakGlass> = {}): BreakGlass {
  return { reason: 'INC-42: ledger migration fixed by hand', expires: FUTURE, ticket: 'INC-42', ...overrides };
}

/** The rendered Application file of "checkout" in a fresh app with `bg`. */
function renderedApplication(bg: BreakGlass, argoCdVersion: ArgoCdVersion = ArgoCdVersion.LATEST): any {
  const { gitops } = newApp({ breakGlass: bg, argoCdVersion });
  const file = gitops.renderFiles().find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml');
  return yamlOf(file!.content);
}

describe('a SafeApplication with a declarative break-glass', () => {
  // GIVEN a break-glass with a reason, a future expiry and a ticket WHEN the app is rendered
  let application: any;
  let normal: any;
  beforeAll(() => {
    application = renderedApplication(breakGlass());
    normal = yamlOf(newApp().gitops.renderFiles().find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml')!.content);
  });

  test('keeps the whole sync policy of the normal app: the suspension is skip-reconcile, not a changed policy', () => {
    // THEN the policy is exactly the normal one, so lifting the break-glass restores nothing by hand (argo-cd #23330)
    expect(application.spec.syncPolicy).toEqual(normal.spec.syncPolicy);
    expect(application.spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
  });

  test('changes nothing else in the spec', () => {
    // THEN
    const { syncPolicy: _, ...rest } = application.spec;
    const { syncPolicy: __, ...normalRest } = normal.spec;
    expect(rest).toEqual(normalRest);
  });

  test('carries the reason, expiry and ticket as annotations', () => {
    // THEN
    expect(application.metadata.annotations).toEqual({
      'argocd.argoproj.io/skip-reconcile': 'true',
      [REASON_ANNOTATION]: 'INC-42: ledger migration fixed by hand',
      [EXPIRES_ANNOTATION]: FUTURE,
      [TICKET_ANNOTATION]: 'INC-42',
    });
  });

  test.each(ArgoCdVersion.all().map((v) => [v.version, v] as const))(
    'validates against the Argo CD %s Application CRD', (release, argoCdVersion) => {
      // GIVEN
      const rendered = renderedApplication(breakGlass(), argoCdVersion);
      // THEN
      expect(rendered.metadata.annotations['argocd.argoproj.io/skip-reconcile']).toBe('true');
      expect(crdErrors('application', release, rendered)).toEqual([]);
    });

  test('resolves the break-glass: reason with whitespace collapsed, ticket trimmed', () => {
    // GIVEN
    const { app } = newApp({ breakGlass: breakGlass({ reason: '  INC-42:\n ledger   migration  ', ticket: '  INC-42 ' }) });
    // THEN
    expect(app.breakGlass).toEqual({ reason: 'INC-42: ledger migration', expires: FUTURE, ticket: 'INC-42' });
    expect((app.resource.toJson() as any).metadata.annotations[REASON_ANNOTATION]).toBe('INC-42: ledger migration');
  });

  test('has no ticket annotation when no ticket is given', () => {
    // GIVEN
    const rendered = renderedApplication(breakGlass({ ticket: undefined }));
    // THEN
    expect(Object.keys(rendered.metadata.annotations).sort()).toEqual(['argocd.argoproj.io/skip-reconcile', EXPIRES_ANNOTATION, REASON_ANNOTATION]);
  });

  test('an app without break-glass has no break-glass annotations and keeps automated sync', () => {
    // THEN
    expect(normal.metadata.annotations).toBeUndefined();
    expect(normal.spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
    expect(newApp().app.breakGlass).toBeUndefined();
  });
});

describe('break-glass expiry at synth', () => {
  test('an expiry in the future synthesizes (SA204 and SA206 stay quiet)', () => {
    // GIVEN
    const { gitops } = newApp({ breakGlass: breakGlass({ expires: FUTURE }) });
    // WHEN / THEN
    expect(gitops.renderFiles().map((f) => f.path)).toContain('applications/payments/Application.checkout.k8s.yaml');
  });

  test('an expiry of today synthesizes: the break-glass holds through its last day', () => {
    // GIVEN a break-glass that expires on the day of the synth (UTC, as SA204 reads it)
    const today = new Date().toISOString().slice(0, 10);
    const { app } = newApp({ breakGlass: breakGlass({ expires: today }) });
    // WHEN validated THEN nothing is reported
    expect(app.node.validate()).toEqual([]);
  });

  test('fails when the expiry is in the past, with SA204 at the expiry annotation', () => {
    // GIVEN
    const { gitops } = newApp({ breakGlass: breakGlass({ expires: '2000-01-01' }) });
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(
      /SA204 expired-break-glass \[error\] on Application argocd\/checkout at checkout\/Resource \/metadata\/annotations\/safe-argocd~1break-glass-expires: the break-glass expired on 2000-01-01/,
    );
  });

  test('fails when the expiry is in the past, and nothing else is reported', () => {
    // GIVEN
    const { app } = newApp({ breakGlass: breakGlass({ expires: '2000-01-01' }) });
    // WHEN
    const errors = app.node.validate();
    // THEN
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^SA204 /);
  });
});

describe('break-glass props are refused with [SAFE-032]', () => {
  test.each([
    ['the reason is empty', { reason: '' }],
    ['the reason is only whitespace', { reason: '          \n   ' }],
    ['the reason is shorter than 10 characters', { reason: 'incident' }],
  ])('fails when %s', (_, overrides) => {
    // GIVEN / WHEN / THEN
    expect(() => newApp({ breakGlass: breakGlass(overrides) })).toThrow(/\[SAFE-032\] checkout: breakGlass\.reason is .* at least 10 characters/);
  });

  test('accepts a reason of exactly 10 characters once trimmed', () => {
    // GIVEN / WHEN
    const { app } = newApp({ breakGlass: breakGlass({ reason: '  INC-77 fix \n' }) });
    // THEN
    expect(app.breakGlass?.reason).toBe('INC-77 fix');
  });

  test('fails when the reason is missing', () => {
    // GIVEN / WHEN / THEN
    expect(() => newApp({ breakGlass: { expires: FUTURE } as any })).toThrow(/\[SAFE-032\] checkout: breakGlass\.reason is missing/);
  });

  test.each([
    ['not a date', 'next friday'],
    ['February 30th', '2026-02-30'],
    ['April 31st', '2026-04-31'],
    ['February 29th of a common year', '2026-02-29'],
    ['not zero-padded', '2026-2-3'],
    ['a date and a time', '2026-12-03T00:00:00Z'],
    ['empty', ''],
  ])('fails when the expiry is %s (%j)', (_, expires) => {
    // GIVEN / WHEN / THEN
    expect(() => newApp({ breakGlass: breakGlass({ expires }) })).toThrow(/\[SAFE-032\] checkout: breakGlass\.expires is .* calendar date written YYYY-MM-DD/);
  });

  test('fails when the expiry is missing', () => {
    // GIVEN / WHEN / THEN
    expect(() => newApp({ breakGlass: { reason: 'INC-42: ledger migration fixed by hand' } as any })).toThrow(/\[SAFE-032\] checkout: breakGlass\.expires is missing/);
  });

  test('accepts February 29th of a leap year', () => {
    // GIVEN / WHEN
    const { app } = newApp({ breakGlass: breakGlass({ expires: '2996-02-29' }) });
    // THEN
    expect(app.breakGlass?.expires).toBe('2996-02-29');
  });

  test.each([
    ['month 13', '2026-13-01'],
    ['month 00', '2026-00-10'],
    ['day 00', '2026-01-00'],
  ])('fails when the expiry has %s (%j), with [SAFE-032] rather than a RangeError', (_, expires) => {
    // GIVEN / WHEN / THEN (new Date('2026-13-01T00:00:00Z') is an Invalid Date, whose toISOString() throws)
    expect(() => newApp({ breakGlass: breakGlass({ expires }) })).toThrow(/\[SAFE-032\] checkout: breakGlass\.expires/);
  });
});
