import { globMatches } from './glob';
import { at, isObject, listAt, Manifest } from './manifest';

/*
 * AppProject sync windows as Argo CD reads them (pkg/apis/application/v1alpha1, SyncWindow and SyncWindows, the
 * same from 2.14 to 3.5): one reading for SafeProject at synth, the audit rule and the break-glass runbook.
 */

/** One field of a window's cron schedule: its bounds and, for month and day of week, its names. */
interface CronField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  /** Whether `?` (any) is documented for the field: day of month and day of week only. */
  readonly question?: boolean;
}

/**
 * The five fields Argo CD's schedule parser reads (robfig/cron v3 with minute, hour, day of month, month and day of
 * week; no seconds and no `@daily` descriptors). Day of week runs from 0 (Sunday) to 6: a 7 is refused.
 */
const CRON_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31, question: true },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], question: true },
];

/** `*` or `?`, or a value or range, then an optional step. */
const CRON_PART = /^(?:([*?])|([0-9]+|[a-z]+)(?:-([0-9]+|[a-z]+))?)(?:\/([0-9]+))?$/;

/**
 * Why Argo CD would refuse this sync window schedule, or undefined when it parses. Argo CD refuses the whole
 * AppProject update when a window's schedule does not parse, so the check is worth making before Git.
 */
export function cronScheduleProblem(schedule: string): string | undefined {
  const text = schedule.trim();
  if (/^(CRON_)?TZ=/.test(text)) {
    return 'carries its own time zone: set the window\'s time zone instead';
  }
  if (text.startsWith('@')) {
    return 'is a descriptor, which Argo CD\'s schedule parser does not accept';
  }
  const fields = text === '' ? [] : text.split(/\s+/);
  if (fields.length !== CRON_FIELDS.length) {
    return `has ${fields.length} fields where Argo CD reads exactly 5 (minute hour day-of-month month day-of-week)`;
  }
  for (let i = 0; i < fields.length; i++) {
    for (const part of fields[i].split(',')) {
      const problem = cronPartProblem(part.toLowerCase(), CRON_FIELDS[i]);
      if (problem !== undefined) {
        return `has ${JSON.stringify(part)} as its ${CRON_FIELDS[i].name}, which ${problem}`;
      }
    }
  }
  return undefined;
}

function cronPartProblem(part: string, field: CronField): string | undefined {
  const m = CRON_PART.exec(part);
  if (!m) {
    return 'is not *, a value, a range a-b or a list, with an optional /step';
  }
  if (m[4] !== undefined && Number(m[4]) === 0) {
    return 'has a step of 0';
  }
  if (m[1] === '?' && !field.question) {
    return 'is documented only for day of month and day of week: use "*"';
  }
  if (m[1] !== undefined) {
    return undefined;
  }
  const start = cronValue(m[2], field);
  const end = m[3] === undefined ? start : cronValue(m[3], field);
  if (start === undefined || end === undefined) {
    return `is not a number from ${field.min} to ${field.max}${field.names ? ` or a name (${field.names[0]}-${field.names[field.names.length - 1]})` : ''}`;
  }
  if (start > end) {
    return 'starts after it ends';
  }
  return undefined;
}

function cronValue(text: string, field: CronField): number | undefined {
  const named = field.names?.indexOf(text) ?? -1;
  if (named >= 0) {
    return field.min + named;
  }
  if (!/^[0-9]+$/.test(text)) {
    return undefined;
  }
  const n = Number(text);
  return n >= field.min && n <= field.max ? n : undefined;
}

/**
 * Why this is not a time zone Argo CD loads, or undefined when it is. Argo CD does not refuse an unknown zone: it
 * logs a warning and runs the window in UTC, hours away from what was meant. `Local` is the controller's own
 * zone, which Git cannot know. Zone names are compared with their case: Go loads them from files.
 */
export function timeZoneProblem(timeZone: string): string | undefined {
  if (timeZone === 'Local') {
    return 'is the Argo CD controller\'s own time zone, which depends on where it runs';
  }
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timeZone)) {
    return 'is not an IANA time zone name';
  }
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return 'is not an IANA time zone name (Argo CD would run the window in UTC instead)';
  }
  if (resolved !== timeZone && resolved.toLowerCase() === timeZone.toLowerCase()) {
    return `is spelled ${JSON.stringify(resolved)} in the time zone database, and Argo CD reads the name with its case`;
  }
  return undefined;
}

/** A sync window of an AppProject, as Argo CD reads it (missing lists empty, a missing time zone UTC). */
export interface SyncWindowFacts {
  /** Its place in `spec.syncWindows`: the id `argocd proj windows` commands take. */
  readonly index: number;
  readonly kind: string;
  readonly schedule: string;
  readonly duration: string;
  readonly timeZone: string;
  readonly applications: readonly string[];
  readonly namespaces: readonly string[];
  readonly clusters: readonly string[];
  readonly manualSync: boolean;
  /** Whether every non-empty list must match (Argo CD 3.0+), not just one. */
  readonly andOperator: boolean;
}

/** The sync windows of an AppProject, in order; entries that are not objects are skipped. */
export function syncWindowsOf(project: Manifest): SyncWindowFacts[] {
  const windows: SyncWindowFacts[] = [];
  listAt(project, 'spec', 'syncWindows').forEach((w, index) => {
    if (!isObject(w)) {
      return;
    }
    const text = (key: string): string => (typeof w[key] === 'string' ? w[key] as string : '');
    const strings = (key: string): string[] => listAt(w, key).filter((x): x is string => typeof x === 'string');
    windows.push({
      index,
      kind: text('kind'),
      schedule: text('schedule'),
      duration: text('duration'),
      timeZone: text('timeZone') || 'UTC',
      applications: strings('applications'),
      namespaces: strings('namespaces'),
      clusters: strings('clusters'),
      manualSync: at(w, 'manualSync') === true,
      andOperator: at(w, 'andOperator') === true,
    });
  });
  return windows;
}

/**
 * Why this window stops the manual sync of a break-glass fix, or undefined when it lets it through. During an
 * active deny window Argo CD lets a manual sync through only when every active deny window has `manualSync`;
 * outside every allow window, only when every allow window has it (SyncWindows.CanSync).
 */
export function manualSyncBlocked(window: Pick<SyncWindowFacts, 'kind' | 'schedule' | 'manualSync'> & { readonly duration?: string }): string | undefined {
  if (window.manualSync) {
    return undefined;
  }
  // An allow window that is always open has no outside: nothing is blocked.
  if (window.kind === 'allow' && window.duration !== undefined && alwaysActive(window.schedule, window.duration)) {
    return undefined;
  }
  if (window.kind === 'deny') {
    return `the deny window ${JSON.stringify(window.schedule)} blocks manual syncs while it is active, so a break-glass fix cannot be synced until it ends`;
  }
  if (window.kind === 'allow') {
    return `the allow window ${JSON.stringify(window.schedule)} blocks manual syncs outside it, so a break-glass fix cannot be synced until it opens`;
  }
  return undefined;
}

/**
 * Whether a window with this schedule and duration is active at every moment: its schedule starts it every day at
 * the same times (day of month, month and day of week all `*`), and no gap between two starts, the one over midnight
 * included, is longer than its duration (`* * * * *` for `1m` or more, `0 * * * *` for `1h`, `0 0 * * *` for `24h`).
 * Argo CD takes a window to be active from each start until its duration has passed. False for what does not parse.
 */
export function alwaysActive(schedule: string, duration: string): boolean {
  const minutes = goDurationMinutes(duration);
  if (minutes === undefined || cronScheduleProblem(schedule) !== undefined) {
    return false;
  }
  const fields = schedule.trim().toLowerCase().split(/\s+/);
  const values = fields.map((f, i) => cronValues(f, CRON_FIELDS[i]));
  const [minute, hour, ...days] = values;
  if (days.some((set, i) => set.size !== CRON_FIELDS[i + 2].max - CRON_FIELDS[i + 2].min + 1)) {
    return false;
  }
  const starts = [...hour].flatMap((h) => [...minute].map((m) => h * 60 + m)).sort((a, b) => a - b);
  let longest = starts[0] + 24 * 60 - starts[starts.length - 1];
  for (let i = 1; i < starts.length; i++) {
    longest = Math.max(longest, starts[i] - starts[i - 1]);
  }
  return longest <= minutes;
}

/** The values a field of a schedule that parses takes: `*`, `?`, values, ranges and lists, each with an optional step. */
function cronValues(text: string, field: CronField): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const m = CRON_PART.exec(part)!;
    const start = m[1] !== undefined ? field.min : cronValue(m[2], field)!;
    // A value with a step runs to the field's end, as robfig/cron reads `5/15`.
    const end = m[1] !== undefined || (m[3] === undefined && m[4] !== undefined) ? field.max : m[3] === undefined ? start : cronValue(m[3], field)!;
    for (let v = start; v <= end; v += Number(m[4] ?? 1)) {
      values.add(v);
    }
  }
  return values;
}

const GO_DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };

/** A Go duration (`24h`, `1h30m`, `90m`, `1.5h`) in minutes, as time.ParseDuration reads it; undefined when it does not parse or is negative. */
function goDurationMinutes(text: string): number | undefined {
  if (text === '0') {
    return 0;
  }
  // A number is digits with an optional fraction, or a fraction alone: one way to read each, so no input backtracks.
  const part = /([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h)/y;
  let ms = 0;
  let i = text.startsWith('+') ? 1 : 0;
  if (i >= text.length) {
    return undefined;
  }
  while (i < text.length) {
    part.lastIndex = i;
    const m = part.exec(text);
    if (!m) {
      return undefined;
    }
    ms += Number(m[1]) * GO_DURATION_UNITS[m[2]];
    i = part.lastIndex;
  }
  return ms / 60e3;
}

/** The Application a window may apply to: its name and destination. */
export interface WindowSubject {
  readonly name: string;
  readonly namespace: string;
  readonly server?: string;
  readonly clusterName?: string;
}

/**
 * Whether a window applies to an Application, as Argo CD decides it (SyncWindows.Matches): one application name,
 * destination cluster (server or name) or destination namespace pattern that matches is enough; with `andOperator`
 * (read from Argo CD 3.0), each non-empty list needs a pattern that matches.
 */
export function windowApplies(window: SyncWindowFacts, app: WindowSubject, andOperatorRead: boolean = true): boolean {
  const lists: [readonly string[], (pattern: string) => boolean][] = [
    [window.applications, (p) => globMatches(p, app.name)],
    [window.clusters, (p) => (app.server !== undefined && app.server !== '' && globMatches(p, app.server))
      || (app.clusterName !== undefined && app.clusterName !== '' && globMatches(p, app.clusterName))],
    [window.namespaces, (p) => globMatches(p, app.namespace)],
  ];
  const set = lists.filter(([patterns]) => patterns.length > 0);
  return window.andOperator && andOperatorRead
    ? set.length > 0 && set.every(([patterns, matches]) => patterns.some(matches))
    : set.some(([patterns, matches]) => patterns.some(matches));
}
