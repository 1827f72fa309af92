import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isApplied, isJobOrPod, waveOf } from './workloads';
import { escapeToken } from '../core/json-pointer';
import { at, isObject, listAt, Manifest } from '../core/manifest';

/** A declared wave as Argo CD reads it: an integer, anything else (and no annotation) wave 0. */
function waveNumber(declared: { wave: string } | undefined): number {
  if (declared === undefined) {
    return 0;
  }
  const text = declared.wave.trim();
  return /^[+-]?\d{1,9}$/.test(text) ? Number(text) : 0;
}

/** A command that only waits for something else: kubectl wait or rollout status, argocd app wait, a wait-for tool. */
const WAITS = /(^|[\s;&|(])(kubectl\s+(wait|rollout\s+status)|argocd\s+app\s+wait|wait-for(-it)?|k8s-wait-for)(\s|$)/;
/**
 * A script that ends polling until something answers, sleeping in between: `until curl -sf ...; do sleep 5; done`
 * and nothing after it (three linear tests).
 */
const POLLS = [/\b(until|while)\s/, /\b(curl|wget|nc|pg_isready|nslookup)\b/, /;\s*do\s+sleep\s+\d+[smh]?\s*;?\s*done\s*$/];
/** A request, which may change something even as a GET (`curl http://app/create_database.php`). */
const REQUESTS = /\b(curl|wget)\b/;
/** Only a sleep. */
const SLEEPS = /^\s*((\/bin\/)?(ba)?sh\s+-c\s+)?sleep\s+\d+[smhd]?\s*$/;
/** What changes something: an apply, a write request, a database client, a migration. */
const CHANGES = /\b(kubectl|oc)\s+(apply|create|patch|replace|delete|annotate|label|scale|set)\b|-X\s*(POST|PUT|PATCH|DELETE)\b|--request\s+(POST|PUT|PATCH|DELETE)\b|\b(psql|mysql|mongo|migrate|flyway|liquibase|alembic|rake|manage\.py|helm)\b/i;

/**
 * Whether every container of a Job or Pod only waits (for a rollout, an Application, an endpoint): a gate that holds
 * the later waves back, with nothing half-done when it fails.
 */
function onlyWaits(obj: Manifest): boolean {
  const pod = obj.kind === 'Pod' ? at(obj, 'spec') : at(obj, 'spec', 'template', 'spec');
  const containers = [...listAt(pod, 'initContainers'), ...listAt(pod, 'containers')];
  return containers.length > 0 && containers.every((c) => {
    if (!isObject(c)) {
      return false;
    }
    const words = [...listAt(c, 'command'), ...listAt(c, 'args')].filter((w): w is string => typeof w === 'string');
    const text = words.join(' ').slice(0, 10_000);
    return text !== '' && !CHANGES.test(text)
      && ((WAITS.test(text) && !REQUESTS.test(text)) || POLLS.every((p) => p.test(text)) || SLEEPS.test(text));
  });
}

/**
 * A Job or Pod ordered by a sync wave ahead of, or together with, other resources of the app, instead of running
 * as a hook. A Job alone in the last wave runs after everything else is applied and healthy, as a PostSync hook
 * would: a post-deploy step, not reported.
 */
export const jobInSyncWave: Rule = {
  id: 'SA103',
  name: 'job-in-sync-wave',
  severity: Severity.ERROR,
  summary: 'A Job or Pod carries a sync-wave, is not a hook, and other resources are applied with or after it: the non-transactional migration.',
  explanation:
    'Sync waves order the apply, but they are not transactional: a migration Job in an early wave can fail '
    + 'half-way while what its wave and the earlier ones applied stays, and a retried sync can run the next wave\'s new code '
    + 'against a half-migrated schema. A PreSync hook runs before anything of the sync is applied, and its failure stops '
    + 'the whole sync. A Job alone in the last wave is not reported: everything else is applied and healthy before it runs, '
    + 'and its failure only fails the sync, as a PostSync hook\'s would (a hook is still better there: a plain Job runs once, '
    + 'and a new image fails the sync on the Job\'s immutable template). Neither is a Job whose containers only wait '
    + '(kubectl wait or rollout status, argocd app wait, a wait-for tool, a loop polling an endpoint, a sleep): a gate '
    + 'that holds the later waves back changes nothing when it fails.',
  fix: 'For work the new version needs first (migrations), make the Job a PreSync hook (argocd.argoproj.io/hook: PreSync, '
    + 'bounded with activeDeadlineSeconds) and remove its sync-wave; MigrationHook renders exactly that. For checks after '
    + 'the deploy (smoke tests, gates), make it a PostSync hook.',
  check({ resources }) {
    const applied = resources.filter(isApplied);
    // Each object's annotation read once, for the count below and for the Jobs among them.
    const declared = applied.map(waveOf);
    const candidates = applied.flatMap((obj, i) => (declared[i] !== undefined && isJobOrPod(obj) && !onlyWaits(obj) ? [i] : []));
    // Most resources hold no Job or Pod in a wave: then there is nothing to count, and nothing is sorted.
    if (candidates.length === 0) {
      return [];
    }
    // Sorted once, so that counting the resources at or after a wave is a binary search: linear-logarithmic however many Jobs.
    const waves = declared.map(waveNumber).sort((a, b) => a - b);
    const found: Violation[] = [];
    for (const i of candidates) {
      const obj = applied[i];
      const wave = declared[i]!;
      const number = waveNumber(wave);
      const withOrAfter = waves.length - firstAtOrAfter(waves, number) - 1;
      if (withOrAfter === 0) {
        continue;
      }
      found.push({
        object: obj,
        path: `/metadata/annotations/${escapeToken(wave.annotation)}`,
        message: `${String(obj.kind)} runs in sync wave ${wave.wave} of the Sync phase with ${withOrAfter} resource(s) applied `
          + 'in the same or a later wave, so a failure half-way stops nothing already applied',
        value: wave.wave,
      });
    }
    return found;
  },
};

/** The index of the first of the ascending `waves` that is at least `wave`. */
function firstAtOrAfter(waves: readonly number[], wave: number): number {
  let low = 0;
  let high = waves.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (waves[middle] < wave) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}
