import { halfEnforcedSyncPolicy } from './sa001-half-enforced-sync-policy';
import { ignoreWithoutRespect } from './sa002-ignore-without-respect';
import { wildcardIgnore } from './sa003-wildcard-ignore';
import { automatedEnabledUnsupported } from './sa004-automated-enabled-unsupported';
import { defaultProject } from './sa005-default-project';
import { missingRetry } from './sa006-missing-retry';
import { floatingTargetRevision } from './sa007-floating-target-revision';
import { allowEmpty } from './sa008-allow-empty';
import { replicasOnAutoscaledWorkload } from './sa101-replicas-on-autoscaled-workload';
import { autoscaledWithoutIgnore } from './sa102-autoscaled-without-ignore';
import { jobInSyncWave } from './sa103-job-in-sync-wave';
import { hookJobWithoutDeadline } from './sa104-hook-job-without-deadline';
import { outOfSyncOnlyWithWaves } from './sa105-out-of-sync-only-with-waves';
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
  replicasOnAutoscaledWorkload,
  autoscaledWithoutIgnore,
  jobInSyncWave,
  hookJobWithoutDeadline,
  outOfSyncOnlyWithWaves,
];

/** The rule with this id, or undefined. */
export function findRule(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
