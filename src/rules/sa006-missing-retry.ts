import { Severity } from './severity';
import { Rule } from './types';
import { at, isAutoSync, isObject } from '../core/manifest';

/** Auto-sync without a bounded retry. */
export const missingRetry: Rule = {
  id: 'SA006',
  name: 'missing-retry',
  severity: Severity.WARNING,
  summary: 'Automated sync has no retry policy, or one that retries nothing.',
  explanation:
    'Automated sync does not retry the same commit after a failed sync: a transient failure (a webhook timing '
    + 'out, a CRD not yet established) leaves the app failed until the next commit. syncPolicy.retry with '
    + 'exponential backoff retries the operation.',
  fix: 'Set syncPolicy.retry with limit 5 and backoff { duration: 5s, factor: 2, maxDuration: 3m }.',
  check({ application, argoCdVersion }) {
    if (!application || !isAutoSync(application, argoCdVersion)) {
      return [];
    }
    const retry = at(application, 'spec', 'syncPolicy', 'retry');
    if (!isObject(retry)) {
      return [{ object: application, path: '/spec/syncPolicy/retry', message: 'automated sync has no retry policy', value: retry }];
    }
    const limit = retry.limit;
    if (typeof limit !== 'number' || limit === 0) {
      return [{ object: application, path: '/spec/syncPolicy/retry/limit', message: `retry.limit is ${limit === undefined ? 'unset' : JSON.stringify(limit)}, so a failed sync is not retried`, value: limit }];
    }
    return [];
  },
};
