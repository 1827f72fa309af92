import { ErrorCode, ErrorCodeValue } from './errors';
import { compareStrings } from './order';

/**
 * What each error code means, one line each: the README's error table is generated from it, and a code
 * without a meaning does not compile.
 */
export const ERROR_MEANINGS: { readonly [code in ErrorCodeValue]: string } = {
  [ErrorCode.INVALID_NAME]: 'a name is not a DNS-1123 label',
  [ErrorCode.DEFAULT_PROJECT]: 'the project is `default` or missing',
  [ErrorCode.INVALID_URL]: 'a repository or server URL Argo CD cannot read',
  [ErrorCode.INVALID_NAMESPACE]: 'a namespace name is invalid',
  [ErrorCode.UNKNOWN_VERSION]: 'an Argo CD release this library does not support',
  [ErrorCode.RETRY_OUT_OF_BOUNDS]: 'retry out of bounds',
  [ErrorCode.INVALID_POINTER]: 'a malformed JSON pointer',
  [ErrorCode.INVALID_IGNORE_TARGET]: 'an ignore target that is not one concrete resource',
  [ErrorCode.INVALID_JQ]: 'a jq expression that does not compile, or does not finish within Argo CD\'s 1 s on what it targets',
  [ErrorCode.WRONG_SCOPE]: 'a construct outside the scope it needs (SafeApplication, GitOpsApp)',
  [ErrorCode.DUPLICATE]: 'a duplicate (Application name, suppression)',
  [ErrorCode.INVALID_SUPPRESSION]: 'a suppression for an unknown rule or without a reason',
  [ErrorCode.SOURCE_CONFLICT]: 'sources that cannot go together: an app with an external source that also defines workloads, Kustomize and Helm options on one folder, a ref source no value file names, one repository read at two revisions',
  [ErrorCode.NOTHING_TO_DEPLOY]: 'an app with nothing to deploy',
  [ErrorCode.UNOWNED_OBJECT]: 'an object outside every SafeApplication',
  [ErrorCode.INVALID_REVISION]: 'a floating or malformed targetRevision',
  [ErrorCode.INVALID_OUTPUT_LAYOUT]: 'an output layout that cannot work',
  [ErrorCode.INVALID_REASON]: 'an ignore rule without a reason',
  [ErrorCode.SCALING_OUT_OF_BOUNDS]: 'autoscaling bounds or targets out of range, or no metric',
  [ErrorCode.HOOK_OUT_OF_BOUNDS]: 'a migration hook\'s deadline, retries or retention out of range',
  [ErrorCode.HOOK_ORDER]: 'migration hooks without an explicit order, or ordered across apps',
  [ErrorCode.NOT_OWNED_BY]: 'a field owner applied to a kind it does not write',
  [ErrorCode.INVALID_SYNC_WAVE]: 'a Job or Pod in a sync wave, or a wave that is not a small integer',
  [ErrorCode.INVALID_GROUP]: 'a HumanAccess group name that is malformed or a Kubernetes `system:` group',
  [ErrorCode.HUMAN_WRITE_ACCESS]: 'a HumanAccess Role widened beyond read, logs and exec',
  [ErrorCode.INVALID_SECRET_DATA]: 'ExternalSecret data that is missing or repeats a key',
  [ErrorCode.REFRESH_OUT_OF_BOUNDS]: 'an ExternalSecret refresh interval out of range',
  [ErrorCode.INVALID_SECRET_STORE]: 'a secret store that cannot serve the ExternalSecret',
  [ErrorCode.PROJECT_WILDCARD]: 'a `*` (or glob) in a SafeProject\'s repositories, destinations or cluster resources',
  [ErrorCode.DESTINATION_NOT_ALLOWED]: 'an Application whose SafeProject does not allow its destination or repository',
  [ErrorCode.BREAK_GLASS]: 'a break-glass without a reason or a valid expiry date',
  [ErrorCode.INVALID_SCAFFOLD_OPTION]: 'a `safe-argocd new` option that cannot be used: `--hpa` that is not MIN:MAX, an `--external-secret` key that is not an environment variable name, an `--image` that is not an image reference, an empty `--library`',
  [ErrorCode.UNNOTIFIED_MIGRATION]: 'a MigrationHook whose failure would notify no one: the app and its project subscribe nobody to on-sync-failed',
  [ErrorCode.INVALID_NOTIFICATION]: 'a notification subscription Argo CD Notifications could not read (trigger, service or recipients)',
  [ErrorCode.INVALID_SYNC_WINDOW]: 'a SafeProject sync window Argo CD would refuse or misread (schedule, duration, time zone, selectors), or one that blocks manual syncs without a reason',
  [ErrorCode.NO_STATEFUL_SET_SERVICE]: 'an HpaManagedStatefulSet without a `service` whose containers declare no port to make its headless Service from',
  [ErrorCode.INVALID_HELM_SOURCE]: 'a Helm chart option Helm or Argo CD cannot use: an empty parameter name, a value file outside the chart, a value file `$<ref>/...` whose ref source the app lacks, a release name Helm refuses, valuesYaml that is not a map of plain values',
  [ErrorCode.INVALID_KUSTOMIZE_SOURCE]: 'a Kustomize option Kubernetes or Kustomize would refuse: an image override without a name, or with both a tag and a digest; a name prefix or suffix that makes invalid object names; a label Kubernetes refuses; a namespace that is not a DNS label; a patch that is not YAML or names no object',
  [ErrorCode.INVALID_KEDA_TRIGGER]: 'a KEDA trigger KEDA would refuse or misread: a percentage out of range, a Prometheus address or query missing, a cron window that is not two five-field expressions, metadata that is not text',
  [ErrorCode.INVALID_ROLLOUT]: 'an HpaManagedRollout strategy Argo Rollouts would refuse: a canary without steps, a weight outside 0 to 100, a pause shorter than a second, a blue-green Service name that is not a DNS label or equal to the preview\'s',
  [ErrorCode.SCAFFOLD_TARGET_EXISTS]: '`safe-argocd new` would overwrite a file, make a second app in a repository that has one, or finds no service table to add to; nothing was written',
  [ErrorCode.INVALID_TEMPLATE]: 'a malformed ApplicationSet template, or a parameter its generators do not give',
  [ErrorCode.INVALID_GENERATOR]: 'an ApplicationSet generator without elements, or with keys a template cannot read',
  [ErrorCode.RULE_VIOLATIONS]: 'synth found rule violations (each line names the rule, object, construct path, field, value and fix)',
  [ErrorCode.WRITE_FAILED]: 'the output could not be written; the previous output is unchanged',
  [ErrorCode.UNREADABLE_INPUT]: '`safe-argocd simulate` input that is not exactly one readable Kubernetes object',
  [ErrorCode.USAGE]: 'a `safe-argocd` command line, `--config` or `.safe-argocd.yaml` that cannot be used',
  [ErrorCode.SWAPPED_INPUT]: '`safe-argocd simulate` inputs in the wrong places: `--app` not an Application, `--live` not the kind of `--desired`',
  [ErrorCode.UNEXPECTED]: 'an unexpected error in `safe-argocd`; `--debug` or `SAFE_ARGOCD_DEBUG=1` prints its stack trace',
};

/** The README's table of error codes, in code order. */
export function errorTable(): string {
  const rows = Object.entries(ERROR_MEANINGS).sort(([a], [b]) => compareStrings(a, b));
  return ['| code | meaning |', '|---|---|', ...rows.map(([code, meaning]) => `| ${code} | ${meaning} |`), ''].join('\n');
}
