import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { FailureNotice, MigrationHook, MigrationHookProps } from '../../src';
import { newApp } from '../support/app';

/** Who the hooks of these tests page; the default (the app's on-call) has its own tests. */
const ONCALL = FailureNotice.to('pagerdutyv2', ['payments-oncall']);

function migration(scope: Construct, id: string, props: Partial<MigrationHookProps> = {}): MigrationHook {
  return new MigrationHook(scope, id, { container: { name: 'migrate', image: 'registry.acme.internal/checkout-migrate:2.3.0' }, onFailure: ONCALL, ...props });
}

/** The message of what `fn` throws. */
function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a throw');
}

describe('MigrationHook.isMigrationHook', () => {
  test.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'migrate'],
    ['a number', 42],
    ['a plain object', {}],
  ])('is false, without throwing, for %s', (_label, value) => {
    expect(MigrationHook.isMigrationHook(value)).toBe(false);
  });
});

describe('MigrationHook Job name', () => {
  test('the Job construct carries the prefix as its name, which the manifest turns into generateName', () => {
    const { app } = newApp();
    const hook = migration(app, 'migrate');
    expect(hook.job.name).toBe('checkout-migrate');
    expect(ApiObject.of(hook).toJson().metadata.name).toBeUndefined();
  });
});

describe('MigrationHook default prefix at the limit', () => {
  test('"<app>-<id>" of exactly 36 characters is used as it is; one more and it is cut and given a hash', () => {
    const { app } = newApp();
    const id = 'm'.repeat(36 - 'checkout-'.length);
    expect(migration(app, id).job.name).toBe(`checkout-${id}`);
    const longer = migration(app, `${id}x`).job.name;
    expect(longer).toMatch(/^checkout-m{20}-[0-9a-f]{6}$/);
  });
});

describe('MigrationHook refusals, in full', () => {
  test('the suggestion for a name too long drops every dash the cut leaves at its end', () => {
    const { app } = newApp();
    expect(errorOf(() => migration(app, 'm', { name: `${'a'.repeat(34)}--bcd` }))).toMatch(/ Fix: use e\.g\. "a{34}"$/);
  });

  test('a bad name is refused with the rule it breaks and a suggestion made from it', () => {
    const { app } = newApp();
    expect(() => migration(app, 'm', { name: 'Db_Migrate' })).toThrow(
      '[SAFE-001] checkout/m: name is "Db_Migrate"; it must be a DNS-1123 label of at most 36 characters: Argo CD appends 26 characters '
      + 'and the Job name must fit the 63-character job-name label. Fix: use e.g. "db-migrate"');
  });

  test('a name that is too long is refused with a suggestion cut to 36 characters, without a trailing dash', () => {
    const { app } = newApp();
    const name = `${'a'.repeat(35)}-bcd`;
    expect(errorOf(() => migration(app, 'm', { name }))).toMatch(/ Fix: use e\.g\. "a{35}"$/);
  });

  test('a name that is not a string is refused, for callers without type checks', () => {
    const { app } = newApp();
    expect(() => migration(app, 'm', { name: ['migrate'] as unknown as string })).toThrow(/^\[SAFE-001\] checkout\/m: name is \["migrate"\]; it /);
  });

  test.each([
    ['activeDeadline', { activeDeadline: Duration.seconds(30) }, 'activeDeadline is "30s"; it must be a whole number from 60s to 21600s. Fix: use e.g. Duration.minutes(10)'],
    ['backoffLimit', { backoffLimit: 6 }, 'backoffLimit is 6; it must be a whole number from 0 to 5. Fix: use 0 to 5'],
    ['failedRunRetention', { failedRunRetention: Duration.minutes(10) }, 'failedRunRetention is "600s"; it must be a whole number from 3600s to 2592000s. Fix: use e.g. Duration.days(3)'],
  ])('a bound out of range (%s) is refused with the range and a fix', (_label, props, message) => {
    const { app } = newApp();
    expect(() => migration(app, 'm', props)).toThrow(`[SAFE-020] checkout/m: ${message}`);
  });

  test('a retention that is not a whole number of seconds is refused like any other bad bound', () => {
    // GIVEN a retention of an hour and half a second WHEN the hook is added
    // THEN it is the library's refusal, not cdk8s' "cannot be converted into a whole number"
    const { app } = newApp();
    expect(() => migration(app, 'm', { failedRunRetention: Duration.millis(3600500) }))
      .toThrow(/^\[SAFE-020\] checkout\/m: failedRunRetention is "3600\.5s"; it /);
  });

  test('`after` that is not a construct is refused with the documented error', () => {
    const { app } = newApp();
    expect(() => migration(app, 'data', { after: {} as MigrationHook })).toThrow(
      '[SAFE-021] checkout/data: after is missing; it must be a MigrationHook of the same SafeApplication. Fix: order migrations only within the app they belong to');
  });
});

describe('MigrationHook order problems are reported once, in full', () => {
  test('unordered migrations: one problem naming all of them and a fix', () => {
    // GIVEN three migrations, two of them without `after`
    const { app, gitops } = newApp();
    const schema = migration(app, 'schema');
    migration(app, 'data');
    migration(app, 'index', { after: schema });
    // WHEN synthesized THEN exactly one problem is reported, naming both unordered ones
    const message = errorOf(() => gitops.renderFiles());
    expect(message).toContain('synth found 1 problem(s)');
    expect(message).toContain('[SAFE-021] 2 migrations of app checkout have no `after` (checkout/schema, checkout/data), '
      + 'so Argo CD would run them at the same time. Fix: give all but the first an `after`, e.g. after: schema.');
  });

  test('two migrations after the same one: one problem naming both and a fix', () => {
    const { app, gitops } = newApp();
    const schema = migration(app, 'schema');
    migration(app, 'data', { after: schema });
    migration(app, 'index', { after: schema });
    const message = errorOf(() => gitops.renderFiles());
    expect(message).toContain('synth found 1 problem(s)');
    expect(message).toContain('[SAFE-021] 2 migrations of app checkout run after checkout/schema (checkout/data, checkout/index), '
      + 'so Argo CD would run them at the same time. Fix: chain them: after: data for the second.');
  });

  test('a shared name prefix: one problem naming both, first one first, and a fix', () => {
    const { app, gitops } = newApp();
    const first = migration(app, 'db_migrate');
    migration(app, 'db-migrate', { after: first });
    const message = errorOf(() => gitops.renderFiles());
    expect(message).toContain('synth found 1 problem(s)');
    expect(message).toContain('[SAFE-011] migrations checkout/db_migrate and checkout/db-migrate share the name prefix "checkout-db-migrate"; '
      + 'Argo CD would give both Jobs one name in the same sync. Fix: give one of them another `name`.');
  });
});
