import { halfEnforcedSyncPolicy } from './sa001-half-enforced-sync-policy';
import { ignoreWithoutRespect } from './sa002-ignore-without-respect';
import { wildcardIgnore } from './sa003-wildcard-ignore';
import { automatedEnabledUnsupported } from './sa004-automated-enabled-unsupported';
import { defaultProject } from './sa005-default-project';
import { missingRetry } from './sa006-missing-retry';
import { floatingTargetRevision } from './sa007-floating-target-revision';
import { allowEmpty } from './sa008-allow-empty';
import { placeholderAddress } from './sa009-placeholder-address';
import { cascadeDeleteFinalizer } from './sa010-cascade-delete-finalizer';
import { duplicateApplicationName } from './sa011-duplicate-application-name';
import { unknownSyncOption } from './sa012-unknown-sync-option';
import { malformedIgnorePointer } from './sa013-malformed-ignore-pointer';
import { missingSourcePath } from './sa014-missing-source-path';
import { unresolvedValueFileRef } from './sa015-unresolved-value-file-ref';
import { applicationSetDeletesApplications } from './sa016-application-set-deletes-applications';
import { ignoreMissingValueFiles } from './sa017-ignore-missing-value-files';
import { missingKustomizeResource } from './sa018-missing-kustomize-resource';
import { ignoreGroupMatchesNothing } from './sa019-ignore-group-matches-nothing';
import { unknownField } from './sa020-unknown-field';
import { replicasOnAutoscaledWorkload } from './sa101-replicas-on-autoscaled-workload';
import { autoscaledWithoutIgnore } from './sa102-autoscaled-without-ignore';
import { jobInSyncWave } from './sa103-job-in-sync-wave';
import { hookJobWithoutDeadline } from './sa104-hook-job-without-deadline';
import { outOfSyncOnlyWithWaves } from './sa105-out-of-sync-only-with-waves';
import { twoReplicaOwners } from './sa106-two-replica-owners';
import { permissiveProject } from './sa201-permissive-project';
import { destinationNotAllowed } from './sa202-destination-not-allowed';
import { secretDataInGit } from './sa203-secret-data-in-git';
import { expiredBreakGlass } from './sa204-expired-break-glass';
import { overrideGranted } from './sa205-override-granted';
import { manualSyncWithoutRecord } from './sa206-manual-sync-without-record';
import { secretInHelmValues } from './sa207-secret-in-helm-values';
import { syncWindowBlocksManualSync } from './sa208-sync-window-blocks-manual-sync';
import { Rule } from './types';

/** Every rule, in id order. Ids are stable and never reused. */
export const ALL_RULES: readonly Rule[] = [
  halfEnforcedSyncPolicy,
  ignoreWithoutRespect,
  wildcardIgnore,
  automatedEnabledUnsupported,
  defaultProject,
  missingRetry,
  floatingTargetRevision,
  allowEmpty,
  placeholderAddress,
  cascadeDeleteFinalizer,
  duplicateApplicationName,
  unknownSyncOption,
  malformedIgnorePointer,
  missingSourcePath,
  unresolvedValueFileRef,
  applicationSetDeletesApplications,
  ignoreMissingValueFiles,
  missingKustomizeResource,
  ignoreGroupMatchesNothing,
  unknownField,
  replicasOnAutoscaledWorkload,
  autoscaledWithoutIgnore,
  jobInSyncWave,
  hookJobWithoutDeadline,
  outOfSyncOnlyWithWaves,
  twoReplicaOwners,
  permissiveProject,
  destinationNotAllowed,
  secretDataInGit,
  expiredBreakGlass,
  overrideGranted,
  manualSyncWithoutRecord,
  secretInHelmValues,
  syncWindowBlocksManualSync,
];

/** The rules a synth runs: all but the audit-only ones. */
export const SYNTH_RULES: readonly Rule[] = ALL_RULES.filter((r) => !r.auditOnly);

/** The rule with this id, or undefined. */
export function findRule(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
