import { createHash } from 'crypto';
import { ApiObject, Duration } from 'cdk8s';
import * as fc from 'fast-check';
import {
  anyText, argoCdVersion, checkTree, dnsLabel, durationBetween, HOOK, image, isLabel, newApp, nonInteger, notSubdomain, refusalProperties,
  runs, SYNC_WAVE,
} from './support';
import { ArgoCdVersion, FailureNotice, MigrationHook } from '../../src';

/** Who the hooks page; the default (the app's on-call) is tested in test/workloads/migration-hook.test.ts. */
const onFailure = FailureNotice.to('pagerdutyv2', ['payments-oncall']);
const prefix = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,34}[a-z0-9])?$/);
const hookProps = fc.record({
  id: dnsLabel,
  name: fc.option(prefix, { nil: undefined }),
  deadline: fc.option(durationBetween(60, 6 * 3600), { nil: undefined }),
  backoffLimit: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  retention: fc.option(durationBetween(3600, 30 * 86400), { nil: undefined }),
  image,
  command: fc.option(fc.array(anyText(1, 10), { minLength: 1, maxLength: 3 }), { nil: undefined }),
});
type HookProps = typeof hookProps extends fc.Arbitrary<infer T> ? T : never;

/** The name prefix MigrationHook documents: the given name, or `<application name>-<construct id>` cut to 36 characters. */
function prefixOf(appName: string, h: HookProps): string {
  if (h.name !== undefined) {
    return h.name;
  }
  // The library's default: `<app>-<id>`, shortened with a hash of the construct path when over 36 characters.
  const full = `${appName}-${h.id}`;
  if (full.length <= 36) {
    return full;
  }
  return `${full.slice(0, 29).replace(/-+$/, '')}-${createHash('sha256').update(`app/${h.id}`).digest('hex').slice(0, 6)}`;
}

/** Hooks chained with `after`, in an app of any name, and now and then another resource in a Sync-phase wave. */
const input = fc.record({
  appName: dnsLabel,
  version: argoCdVersion,
  hooks: fc.uniqueArray(hookProps, { minLength: 1, maxLength: 3, selector: (h) => h.id }),
  wave: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
});

function buildHooks(i: { appName: string; version?: ArgoCdVersion; hooks: (Partial<HookProps> & Pick<HookProps, 'id' | 'image'>)[]; wave?: number }) {
  const { gitops, app } = newApp(i.appName, i.version);
  const hooks: MigrationHook[] = [];
  for (const h of i.hooks) {
    hooks.push(new MigrationHook(app, h.id, {
      name: h.name,
      container: { image: h.image, command: h.command, securityContext: { user: 10001, group: 10001 } },
      activeDeadline: h.deadline?.duration,
      backoffLimit: h.backoffLimit,
      failedRunRetention: h.retention?.duration,
      after: hooks[hooks.length - 1],
      onFailure,
    }));
  }
  if (i.wave !== undefined) {
    // (An id no hook has: hook ids are DNS labels, lowercase.)
    app.addToSyncWave(new ApiObject(app, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } }), i.wave);
  }
  return { gitops, hooks };
}

describe('MigrationHook properties', () => {
  test('for any chain of hooks with distinct name prefixes: bounded PreSync Jobs, waves only inside PreSync, valid objects', () => {
    const distinct = input.filter((i) => new Set(i.hooks.map((h) => prefixOf(i.appName, h))).size === i.hooks.length);
    fc.assert(fc.property(distinct, (i) => {
      // GIVEN a fresh app with a chain of one to three migrations, each after the previous one
      // WHEN the tree is rendered THEN it passes every check (no Job in a wave of the Sync phase included)
      const { docs } = checkTree(() => buildHooks(i).gitops);
      const jobs = docs.filter((d) => d.kind === 'Job');
      expect(jobs).toHaveLength(i.hooks.length);
      i.hooks.forEach((h, n) => {
        const p = prefixOf(i.appName, h);
        const job = jobs.find((j) => j.metadata.generateName === `${p}-`)!;
        // THEN each is a bounded PreSync hook whose generated name fits the 63-character job-name label
        expect(job.metadata.name).toBeUndefined();
        expect(isLabel(p) && p.length + 1 + 26 <= 63).toBe(true);
        expect(job.metadata.annotations[HOOK]).toBe('PreSync');
        expect(job.metadata.annotations['argocd.argoproj.io/hook-delete-policy']).toBe('HookSucceeded');
        // THEN the chain is ordered by waves within PreSync: the first has none, the n-th wave n
        expect(job.metadata.annotations[SYNC_WAVE]).toBe(n === 0 ? undefined : String(n));
        expect(job.spec.activeDeadlineSeconds).toBe(h.deadline?.seconds ?? 600);
        expect(job.spec.backoffLimit).toBe(h.backoffLimit ?? 1);
        expect(job.spec.ttlSecondsAfterFinished).toBe(h.retention?.seconds ?? 3 * 86400);
        expect(job.spec.template.spec.restartPolicy).toBe('Never');
      });
    }), runs(2201));
  });

  test('for any app name and construct ids, two chained hooks left unnamed get distinct default name prefixes', () => {
    // The documented default prefix is `<application name>-<construct id>` cut to 36 characters: a long application
    // name (or long ids that start alike) cuts the ids off, and the synth then refuses the pair with [SAFE-011].
    fc.assert(fc.property(dnsLabel, fc.uniqueArray(dnsLabel, { minLength: 2, maxLength: 2 }), (appName, ids) => {
      // GIVEN an app of any name with two chained migrations that were given no name
      const { gitops, hooks } = buildHooks({ appName, hooks: ids.map((id) => ({ id, image: 'registry.acme.internal/m:1' })) });
      // WHEN it is rendered THEN the constructors' defaults do not collide, and the synth passes
      expect(hooks[0].namePrefix).not.toBe(hooks[1].namePrefix);
      expect(() => gitops.renderFiles()).not.toThrow();
    }), runs(2202));
  });
});

const container = { image: 'registry.acme.internal/m:1' };
refusalProperties('MigrationHook refusals', {
  'MigrationHook name': fc.oneof(notSubdomain, fc.stringMatching(/^[a-z0-9][-a-z0-9]{35,61}[a-z0-9]$/), fc.constantFrom('a.b', 'a-', ''))
    .filter((n) => !isLabel(n) || n.length > 36)
    .map((name) => () => new MigrationHook(newApp('app').app, 'migrate', { name, container, onFailure })),
  'MigrationHook activeDeadline': fc.oneof(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 6 * 3600 + 1, max: 1e7 }))
    .map((s) => () => new MigrationHook(newApp('app').app, 'migrate', { activeDeadline: Duration.seconds(s), container, onFailure })),
  'MigrationHook backoffLimit': fc.oneof(fc.integer({ min: -100, max: -1 }), fc.integer({ min: 6, max: 1000 }), nonInteger, fc.constant(NaN))
    .map((backoffLimit) => () => new MigrationHook(newApp('app').app, 'migrate', { backoffLimit, container, onFailure })),
  'MigrationHook failedRunRetention': fc.oneof(
    fc.integer({ min: 0, max: 3599 }).map((s) => Duration.seconds(s)),
    fc.integer({ min: 30 * 86400 + 1, max: 1e9 }).map((s) => Duration.seconds(s)),
    fc.integer({ min: 3600001, max: 4000000 }).filter((ms) => ms % 1000 !== 0).map((ms) => Duration.millis(ms)),
  ).map((failedRunRetention) => () => new MigrationHook(newApp('app').app, 'migrate', { failedRunRetention, container, onFailure })),
  'MigrationHook after': dnsLabel.map((other) => () => {
    const foreign = new MigrationHook(newApp(other).app, 'first', { container, onFailure });
    return new MigrationHook(newApp('app').app, 'second', { after: foreign, container, onFailure });
  }),
  'SafeApplication.addToSyncWave resource (a Job)': dnsLabel.map((id) => () => {
    const { app } = newApp('app');
    app.addToSyncWave(new MigrationHook(app, id, { container, onFailure }).job, 1);
  }),
  'SafeApplication.addToSyncWave wave': fc.oneof(fc.integer({ min: 1001, max: 1e6 }), fc.integer({ min: -1e6, max: -1001 }), nonInteger, fc.constant(NaN))
    .map((wave) => () => {
      const { app } = newApp('app');
      app.addToSyncWave(new ApiObject(app, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }), wave);
    }),
}, 2500);
