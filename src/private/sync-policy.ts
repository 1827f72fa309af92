import { Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import { goDuration } from './go-duration';
import { ArgoCdVersion } from '../core/argocd-version';
import { badValue, ErrorCode } from '../core/errors';
import { ApplicationSpecSyncPolicy } from '../imports/application-argoproj.io';
import { RetryOptions } from '../values/retry-options';

/** Retry bounds with every default filled in and checked. */
export interface ResolvedRetry {
  readonly limit: number;
  readonly backoffDuration: Duration;
  readonly backoffFactor: number;
  readonly backoffMaxDuration: Duration;
}

/** What the hardened sync policy depends on. */
export interface SyncPolicyInput {
  /** The release the Application is rendered for: `automated.enabled` exists from 3.1. */
  readonly argoCdVersion: ArgoCdVersion;
  /** Whether the Application has ignoreDifferences, which then must be respected on sync. */
  readonly hasIgnoreRules: boolean;
  /** Whether resources are ordered in sync waves, which drops ApplyOutOfSyncOnly (see renderSyncOptions). Default false. */
  readonly usesSyncWaves?: boolean;
  /** Whether auto-sync is on; false leaves `automated` out, e.g. while a declarative break-glass suspends the app. Default true. */
  readonly automated?: boolean;
  readonly retry: ResolvedRetry;
}

/**
 * The sync options of the hardened policy. ApplyOutOfSyncOnly is left out when resources are ordered in
 * sync waves: with it, a sync leaves out the resources already in sync, so a wave does not wait for those of
 * earlier waves to be healthy.
 */
export function renderSyncOptions(input: Pick<SyncPolicyInput, 'hasIgnoreRules' | 'usesSyncWaves'>): string[] {
  const options = ['CreateNamespace=true', 'PruneLast=true'];
  if (!input.usesSyncWaves) {
    options.push('ApplyOutOfSyncOnly=true');
  }
  if (input.hasIgnoreRules) {
    options.push('RespectIgnoreDifferences=true');
  }
  return options;
}

/**
 * The hardened `spec.syncPolicy`: automated with prune and selfHeal, never allowEmpty (`enabled` only
 * where the release has the field), the sync options above, and a bounded retry with exponential backoff.
 * Shared by every construct that renders an Application or an Application template, so they cannot drift.
 */
export function renderSyncPolicy(input: SyncPolicyInput): ApplicationSpecSyncPolicy {
  return {
    automated: input.automated === false ? undefined : {
      enabled: input.argoCdVersion.hasAutomatedEnabled ? true : undefined,
      prune: true,
      selfHeal: true,
      allowEmpty: false,
    },
    syncOptions: renderSyncOptions(input),
    retry: {
      limit: input.retry.limit,
      backoff: {
        duration: goDuration(input.retry.backoffDuration),
        factor: input.retry.backoffFactor,
        maxDuration: goDuration(input.retry.backoffMaxDuration),
      },
    },
  };
}

/**
 * Fills in the retry defaults (limit 5, 5s, factor 2, 3m) and checks the bounds.
 *
 * @throws [SAFE-006] naming `scope`'s path when a bound is out of range
 */
export function resolveRetry(scope: IConstruct, retry: RetryOptions): ResolvedRetry {
  const resolved: ResolvedRetry = {
    limit: retry.limit ?? 5,
    backoffDuration: retry.backoffDuration ?? Duration.seconds(5),
    backoffFactor: retry.backoffFactor ?? 2,
    backoffMaxDuration: retry.backoffMaxDuration ?? Duration.minutes(3),
  };
  const bounded = (prop: string, value: number, min: number, max: number, unit: string, fix: string) => {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw badValue(ErrorCode.RETRY_OUT_OF_BOUNDS, scope, `retry.${prop}`, unit === 's' ? `${value}s` : value,
        `must be a whole number from ${min}${unit} to ${max}${unit}`, fix);
    }
  };
  bounded('limit', resolved.limit, 1, 10, '', 'retry between 1 and 10 times; unlimited retries hammer a broken commit forever');
  bounded('backoffDuration', resolved.backoffDuration.toSeconds({ integral: false }), 1, 300, 's', 'use e.g. Duration.seconds(5)');
  bounded('backoffFactor', resolved.backoffFactor, 1, 10, '', 'use e.g. 2');
  bounded('backoffMaxDuration', resolved.backoffMaxDuration.toSeconds({ integral: false }),
    Math.max(1, resolved.backoffDuration.toSeconds({ integral: false })), 3600, 's',
    'use a maximum no shorter than backoffDuration and at most an hour, e.g. Duration.minutes(3)');
  return resolved;
}
