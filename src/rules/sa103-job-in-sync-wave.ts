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
      && ((WAITS.test(text) && !REQUESTS.test(text)) || POLLS.every((p) => p.test(text)) || SLEEPS.test(text) || pollsByReading(text));
  });
}

/** A shell that runs the script after it (`/bin/bash -c`, `sh -ec`). */
const SHELL = /^\s*(?:\/usr)?(?:\/bin\/)?(?:ba|da|a)?sh\s+(?:-[a-z]+\s+)*/;
/** The keywords after which a command starts. */
const KEYWORDS = /^(?:if|then|else|elif|while|until|do|!|time)$/;
/** Commands that change nothing outside the container: output, tests, control, text filters, sleeps. */
const HARMLESS = /^(?:echo|printf|sleep|exit|break|continue|true|false|test|\[|\[\[|:|done|fi|set|grep|egrep|jq|wc|head|tail|cut|tr|sort|date)$/;
/** Commands that only read the state of something else: a Kubernetes object, a port, a database's readiness, a name. */
const PROBES = /^(?:pg_isready|nc|nslookup|dig|getent)$/;
/** The kubectl (or oc) subcommands that only read. */
const KUBECTL_READS = /^(?:get|describe|wait|version|cluster-info|api-resources)$/;
/** Global kubectl flags that take the next word as their value. */
const KUBECTL_VALUE_FLAGS = /^(?:-n|--namespace|--context|--kubeconfig|--cluster|--user|-s|--server)$/;

/**
 * Whether a shell script only polls in a loop: a `while` or `until` loop with a sleep, and every command of the script
 * (in conditions, substitutions and pipes too) one that reads (kubectl get or wait, a probe) or changes nothing outside
 * the container (echo, tests, exit, sleep). `while true; do S=$(kubectl get job x -o jsonpath=...); if [[ $S == True ]];
 * then exit 0; fi; sleep 30; done`. Requests (curl, wget) are not taken: a GET may still change something.
 */
function pollsByReading(text: string): boolean {
  if (text.includes('<<')) {
    return false;
  }
  const unquoted = withoutQuotedText(text.replace(SHELL, ''));
  if (unquoted === undefined) {
    return false;
  }
  const script = unquoted
    // Arithmetic runs nothing; && and || inside [[ ]] join tests, not commands.
    .replace(/\$\(\([^()]*\)\)/g, '0')
    .replace(/\[\[([^\]]*)\]\]/g, (_, inner: string) => `[[ ${inner.replace(/&&|\|\|/g, ' -a ')} ]]`)
    .replace(/(^|\s)#[^\n]*/g, '$1');
  let loops = false;
  let sleeps = false;
  let reads = false;
  for (const segment of script.split(/\n|;|&&|\|\||\||\$\(|`|[(){}]/)) {
    const words = segment.trim().split(/\s+/).filter((w) => w !== '');
    // Keywords and assignments before a command (`do STATUS=`, `N=0`).
    while (words.length > 0 && (KEYWORDS.test(words[0]) || /^[A-Za-z_]\w*=/.test(words[0]))) {
      loops ||= words[0] === 'while' || words[0] === 'until';
      words.shift();
    }
    if (words.length === 0) {
      continue;
    }
    const [command, ...args] = words;
    if (command === 'kubectl' || command === 'oc') {
      if (!KUBECTL_READS.test(subcommand(args))) {
        return false;
      }
      reads = true;
    } else if (PROBES.test(command)) {
      reads = true;
    } else if (!HARMLESS.test(command)) {
      return false;
    }
    sleeps ||= command === 'sleep';
  }
  return loops && sleeps && reads;
}

/**
 * The script with its quoted text emptied (`''`, `""`), keeping the command substitutions a double-quoted string runs
 * (`"$(kubectl get ...)"`); undefined when a quote is not closed.
 */
function withoutQuotedText(script: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < script.length) {
    const c = script[i];
    if (c === '\\') {
      out += script.slice(i, i + 2);
      i += 2;
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end < 0) {
        return undefined;
      }
      out += "''";
      i = end + 1;
    } else if (c === '"') {
      out += '"';
      i++;
      while (i < script.length && script[i] !== '"') {
        if (script[i] === '\\') {
          i += 2;
        } else if (script.startsWith('$(', i)) {
          const end = closingParen(script, i + 1);
          out += ` ${script.slice(i, end + 1)} `;
          i = end + 1;
        } else if (script[i] === '`') {
          const end = script.indexOf('`', i + 1);
          out += ` ${script.slice(i, end < 0 ? script.length : end + 1)} `;
          i = end < 0 ? script.length : end + 1;
        } else {
          i++;
        }
      }
      if (i >= script.length) {
        return undefined;
      }
      out += '"';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index of the parenthesis that closes the one at `open`, or the end of the text. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') {
      depth++;
    } else if (text[i] === ')' && --depth === 0) {
      return i;
    }
  }
  return text.length - 1;
}

/** The first word of kubectl's arguments that is neither a global flag nor a flag's value. */
function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (KUBECTL_VALUE_FLAGS.test(args[i])) {
      i++;
    } else if (!args[i].startsWith('-')) {
      return args[i];
    }
  }
  return '';
}

/**
 * A Job or Pod ordered by a sync wave ahead of, or together with, other resources of the app, instead of running
 * as a hook. A Job alone in the last wave, or with other Jobs only, runs after everything else is applied and healthy,
 * as a PostSync hook would: a post-deploy step, not reported.
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
    + 'the whole sync. A Job alone in the last wave, or there with other Jobs and Pods that run to completion only, is not '
    + 'reported: everything else is applied and healthy before it runs, '
    + 'and its failure only fails the sync, as a PostSync hook\'s would (a hook is still better there: a plain Job runs once, '
    + 'and a new image fails the sync on the Job\'s immutable template). Neither is a Job whose containers only wait '
    + '(kubectl wait or rollout status, argocd app wait, a wait-for tool, a loop polling an endpoint, a shell loop that only '
    + 'reads, with kubectl get or a probe, and sleeps, a sleep): a gate '
    + 'that holds the later waves back changes nothing when it fails.',
  fix: 'For work the new version needs first (migrations), make the Job a PreSync hook (argocd.argoproj.io/hook: PreSync, '
    + 'bounded with activeDeadlineSeconds) and remove its sync-wave; MigrationHook renders exactly that. For checks after '
    + 'the deploy (smoke tests, gates), make it a PostSync hook.',
  check({ resources }) {
    // Most units hold no Job or Pod that the Sync phase applies in a declared wave: then no other object is read.
    if (!resources.some((obj) => isJobOrPod(obj) && waveOf(obj) !== undefined && isApplied(obj))) {
      return [];
    }
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
      if (withOrAfter === 0 || (number === waves[waves.length - 1] && lastWaveRunsOnly(applied, declared, number))) {
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

/**
 * Whether everything applied in the last wave, `wave`, runs to completion (Jobs, Pods that do not restart): Jobs alone
 * in the last wave start after everything else is applied and healthy, and none runs code another of them waits for.
 */
function lastWaveRunsOnly(applied: readonly Manifest[], declared: ReadonlyArray<{ wave: string } | undefined>, wave: number): boolean {
  return applied.every((obj, i) => waveNumber(declared[i]) !== wave || runsToCompletion(obj));
}

/** A batch Job, or a core Pod whose restartPolicy (default Always) lets it finish. */
function runsToCompletion(obj: Manifest): boolean {
  if (!isJobOrPod(obj)) {
    return false;
  }
  return obj.kind === 'Job' || ['Never', 'OnFailure'].includes(String(at(obj, 'spec', 'restartPolicy')));
}

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
