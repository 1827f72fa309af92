import { Severity } from './severity';
import { Rule } from './types';
import { at, isObject } from '../core/manifest';

/** `automated.enabled` on an Argo CD release that does not have the field. */
export const automatedEnabledUnsupported: Rule = {
  id: 'SA004',
  name: 'automated-enabled-unsupported',
  severity: Severity.ERROR,
  summary: 'syncPolicy.automated.enabled is set for an Argo CD release older than 3.1.',
  explanation:
    'The enabled field exists from Argo CD 3.1, where the controller and the CLI read it (the UI from 3.2, argo-cd #24254). Older '
    + 'releases do not know it: "enabled: false" there does not pause auto-sync, and the app keeps syncing '
    + 'while its owners believe it is paused.',
  fix: 'Remove syncPolicy.automated.enabled, or target Argo CD 3.1 or newer. To pause auto-sync on an older release, remove the automated block.',
  check({ application, argoCdVersion }) {
    if (!application || argoCdVersion.hasAutomatedEnabled) {
      return [];
    }
    const automated = at(application, 'spec', 'syncPolicy', 'automated');
    if (!isObject(automated) || !('enabled' in automated)) {
      return [];
    }
    return [{
      object: application,
      path: '/spec/syncPolicy/automated/enabled',
      message: `automated.enabled is ${JSON.stringify(automated.enabled)}, but Argo CD ${argoCdVersion.version} has no such field`,
      value: automated.enabled,
    }];
  },
};
