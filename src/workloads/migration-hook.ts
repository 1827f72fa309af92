import { createHash } from 'crypto';
import { ApiObject, Duration, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { SafeApplication } from '../application/safe-application';
import { FAILURE_NOTICE_ANNOTATION, HOOK_ANNOTATION, HOOK_DELETE_POLICY_ANNOTATION, SYNC_WAVE_ANNOTATION } from '../core/annotations';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Label, suggestDns1123Label } from '../core/names';
import { FailureNotice, FailureNoticeKind } from '../values/notification';

const MIGRATION_HOOK = Symbol.for('cdk8s-safe-argocd.MigrationHook');

/**
 * Argo CD names a hook that has generateName `<generateName><revision[0:7]>-<phase>-<unix seconds>`
 * (gitops-engine pkg/sync/sync_context.go, getSyncTasks): 7 + 1 + 7 ("presync") + 1 + 10 = 26 characters.
 */
const MAX_PREFIX = 63 - 26 - 1;

/**
 * Labels and annotations that keep the known service meshes from injecting a sidecar into the hook's pod.
 * A Job whose injected proxy keeps running never completes, and the sync waits for it (argo-cd #27407).
 */
const NO_SIDECAR_LABELS: Record<string, string> = {
  // https://istio.io/latest/docs/setup/additional-setup/sidecar-injection/#controlling-the-injection-policy
  'sidecar.istio.io/inject': 'false',
};
const NO_SIDECAR_ANNOTATIONS: Record<string, string> = {
  // https://linkerd.io/2/features/proxy-injection/
  'linkerd.io/inject': 'disabled',
};

/**
 * Props of a {@link MigrationHook}.
 */
export interface MigrationHookProps {
  /** The migration container: image, command, environment, resources. */
  readonly container: kplus.ContainerProps;

  /**
   * The prefix of the Job's generated name. For every sync operation Argo CD names the Job
   * `<name>-<first 7 characters of the revision>-presync-<start time in Unix seconds>` (26 characters after
   * the prefix), and the name must fit the 63-character `job-name` label: a DNS-1123 label of at most 36 characters.
   *
   * @default - `<application name>-<construct id>`, shortened to 36 characters
   */
  readonly name?: string;

  /**
   * How long the migration may run before Kubernetes fails it, and with it the sync: an image that
   * cannot be pulled or a lock that is never released ends here instead of leaving the sync Progressing
   * forever (argo-cd #15593). From 1 minute to 6 hours.
   *
   * @default Duration.minutes(10)
   */
  readonly activeDeadline?: Duration;

  /**
   * How many times Kubernetes retries a failed migration pod within the Job, 0 to 5. Every failed pod is
   * kept with its logs as long as the Job is. (Argo CD's own retry of the same sync operation does not
   * re-run the hook: it finds the failed Job of that operation under the same name.)
   *
   * @default 1 - one more attempt for a transient failure such as a database that was not reachable yet
   */
  readonly backoffLimit?: number;

  /**
   * How long a finished Job (in practice a failed one: Argo CD deletes succeeded hooks at once) is kept
   * so its logs can be read, from 1 hour to 30 days.
   *
   * @default Duration.days(3) - long enough to outlast a weekend
   */
  readonly failedRunRetention?: Duration;

  /**
   * A migration that must complete before this one starts. Several migrations of one app must be
   * ordered this way; they run one wave after another within the PreSync phase.
   *
   * @default - the first migration of the app
   */
  readonly after?: MigrationHook;

  /**
   * The service account the migration runs as.
   *
   * @default - the namespace's default service account
   */
  readonly serviceAccount?: kplus.IServiceAccount;

  /**
   * Volumes the container can mount.
   *
   * @default - none
   */
  readonly volumes?: kplus.Volume[];

  /**
   * Who is told when the migration fails, which fails the sync: subscriptions to Argo CD Notifications'
   * `on-sync-failed` trigger on the Application.
   *
   * @default FailureNotice.onCall() - everyone the app or its SafeProject already notifies, through the same
   * services; synth fails when that is nobody
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/notifications/catalog/#triggers
   */
  readonly onFailure?: FailureNotice;

  /**
   * The pod security context.
   *
   * @default - cdk8s-plus defaults (run as non-root)
   */
  readonly securityContext?: kplus.PodSecurityContextProps;
}

/**
 * A database migration that runs before anything of its app is applied, and stops the sync when it fails.
 *
 * It is a batch/v1 Job with `argocd.argoproj.io/hook: PreSync`: Argo CD runs every PreSync hook to
 * completion before the Sync phase applies a single resource, and a failed hook fails the whole sync, so
 * new code never runs against a half-migrated schema. A Job in a sync wave gives no such guarantee: waves
 * are not transactional, and later waves are not rolled back.
 *
 * - Bounded: `activeDeadlineSeconds`, `backoffLimit` and `restartPolicy: Never`, so it fails rather than hangs.
 * - `metadata.generateName` with `hook-delete-policy: HookSucceeded`: Argo CD names the Job after the
 *   revision and the start of the sync operation, so every new operation (the next commit, a manual sync)
 *   runs a fresh Job; a succeeded one is deleted at once, a failed one is kept with its logs until
 *   `failedRunRetention` has passed (`ttlSecondsAfterFinished`). The default policy, BeforeHookCreation,
 *   would delete the failed Job and its logs at the next attempt (argo-cd #11872). Argo CD's automatic
 *   retry of the same operation keeps its start time, finds the failed Job under the same name, and fails
 *   without re-running a half-applied migration.
 * - Sidecar injection is switched off for Istio and Linkerd, so the Job can complete in a mesh namespace.
 * - No annotation Argo CD does not read: there is no hook-failure-policy; aborting is what PreSync does.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/resource_hooks/
 */
export class MigrationHook extends Construct {
  /** Whether `x` is a MigrationHook. */
  public static isMigrationHook(x: unknown): x is MigrationHook {
    return typeof x === 'object' && x !== null && MIGRATION_HOOK in x;
  }

  /** The Job. */
  public readonly job: kplus.Job;
  /** The prefix of the Job's generated name. */
  public readonly namePrefix: string;
  /** The wave of this hook within the PreSync phase: 0 for the first, one more than `after`'s otherwise. */
  public readonly wave: number;
  /** The migration that runs before this one, if any. */
  public readonly after?: MigrationHook;

  public constructor(scope: Construct, id: string, props: MigrationHookProps) {
    super(scope, id);
    Object.defineProperty(this, MIGRATION_HOOK, { value: true });
    const app = SafeApplication.enclosing(this);

    this.namePrefix = props.name ?? defaultPrefix(`${app.applicationName}-${id}`, this.node.path);
    if (typeof this.namePrefix !== 'string' || this.namePrefix.length > MAX_PREFIX || !isDns1123Label(this.namePrefix)) {
      throw badValue(ErrorCode.INVALID_NAME, this, 'name', props.name,
        `must be a DNS-1123 label of at most ${MAX_PREFIX} characters: Argo CD appends 26 characters and the Job name must fit the 63-character job-name label`, `use e.g. ${JSON.stringify(suggestDns1123Label(String(props.name ?? id)).slice(0, MAX_PREFIX).replace(/-+$/, ''))}`);
    }
    const activeDeadline = props.activeDeadline ?? Duration.minutes(10);
    const backoffLimit = props.backoffLimit ?? 1;
    const retention = props.failedRunRetention ?? Duration.days(3);
    bounded(this, 'activeDeadline', activeDeadline.toSeconds({ integral: false }), 60, 6 * 3600, 's', 'use e.g. Duration.minutes(10)');
    bounded(this, 'backoffLimit', backoffLimit, 0, 5, '', 'use 0 to 5');
    bounded(this, 'failedRunRetention', retention.toSeconds({ integral: false }), 3600, 30 * 86400, 's', 'use e.g. Duration.days(3)');

    if (props.after) {
      if (!MigrationHook.isMigrationHook(props.after) || SafeApplication.enclosing(props.after) !== app) {
        throw badValue(ErrorCode.HOOK_ORDER, this, 'after', props.after?.node?.path,
          'must be a MigrationHook of the same SafeApplication', 'order migrations only within the app they belong to');
      }
      this.after = props.after;
      this.wave = props.after.wave + 1;
    } else {
      this.wave = 0;
    }

    const notice = props.onFailure ?? FailureNotice.onCall();
    app._addFailureNotice(this, notice);

    this.job = new kplus.Job(this, 'Resource', {
      metadata: { name: this.namePrefix },
      containers: [props.container],
      activeDeadline,
      backoffLimit,
      ttlAfterFinished: retention,
      restartPolicy: kplus.RestartPolicy.NEVER,
      serviceAccount: props.serviceAccount,
      volumes: props.volumes,
      securityContext: props.securityContext,
      podMetadata: { labels: NO_SIDECAR_LABELS, annotations: NO_SIDECAR_ANNOTATIONS },
    });
    const obj = ApiObject.of(this.job);
    obj.metadata.addAnnotation(HOOK_ANNOTATION, 'PreSync');
    obj.metadata.addAnnotation(HOOK_DELETE_POLICY_ANNOTATION, 'HookSucceeded');
    if (this.wave > 0) {
      // Orders hooks within the PreSync phase only; the Job never joins a wave of the Sync phase.
      obj.metadata.addAnnotation(SYNC_WAVE_ANNOTATION, String(this.wave));
    }
    obj.addJsonPatch(JsonPatch.remove('/metadata/name'), JsonPatch.add('/metadata/generateName', `${this.namePrefix}-`));

    if (notice.kind === FailureNoticeKind.ELSEWHERE) {
      obj.metadata.addAnnotation(FAILURE_NOTICE_ANNOTATION, notice.reason!);
    }
    this.node.addValidation({ validate: () => this.validateOrder(app) });
  }

  private validateOrder(app: SafeApplication): string[] {
    const hooks = app.node.findAll().filter((c): c is MigrationHook => MigrationHook.isMigrationHook(c));
    // Report app-wide problems once, from the first hook.
    if (hooks[0] !== this) {
      return [];
    }
    const errors: string[] = [];
    const first = hooks.filter((h) => h.after === undefined);
    if (first.length > 1) {
      errors.push(`[${ErrorCode.HOOK_ORDER}] ${first.length} migrations of app ${app.applicationName} have no \`after\` `
        + `(${first.map((h) => h.node.path).join(', ')}), so Argo CD would run them at the same time. `
        + `Fix: give all but the first an \`after\`, e.g. after: ${first[0].node.id}.`);
    }
    for (const h of hooks) {
      const next = hooks.filter((x) => x.after === h);
      if (next.length > 1) {
        errors.push(`[${ErrorCode.HOOK_ORDER}] ${next.length} migrations of app ${app.applicationName} run after ${h.node.path} `
          + `(${next.map((x) => x.node.path).join(', ')}), so Argo CD would run them at the same time. `
          + `Fix: chain them: after: ${next[0].node.id} for the second.`);
      }
      const twin = hooks.find((x) => x !== h && x.namePrefix === h.namePrefix);
      if (twin && hooks.indexOf(twin) > hooks.indexOf(h)) {
        errors.push(`[${ErrorCode.DUPLICATE}] migrations ${h.node.path} and ${twin.node.path} share the name prefix ${JSON.stringify(h.namePrefix)}; `
          + 'Argo CD would give both Jobs one name in the same sync. Fix: give one of them another `name`.');
      }
    }
    return errors;
  }
}

/**
 * `<app>-<id>` when it fits; otherwise shortened with a short hash of the construct path, so two hooks of one
 * app never share a default prefix.
 */
function defaultPrefix(wanted: string, path: string): string {
  const full = suggestDns1123Label(wanted);
  if (full.length <= MAX_PREFIX) {
    return full;
  }
  const hash = createHash('sha256').update(path).digest('hex').slice(0, 6);
  return `${full.slice(0, MAX_PREFIX - 7).replace(/-+$/, '')}-${hash}`;
}

function bounded(scope: Construct, prop: string, value: number, min: number, max: number, unit: string, fix: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw badValue(ErrorCode.HOOK_OUT_OF_BOUNDS, scope, prop, unit ? `${value}${unit}` : value,
      `must be a whole number from ${min}${unit} to ${max}${unit}`, fix);
  }
}
