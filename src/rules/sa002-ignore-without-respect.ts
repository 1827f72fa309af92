import { Severity } from './severity';
import { Rule } from './types';
import { listAt, syncOptionsOf } from '../core/manifest';

/** ignoreDifferences without RespectIgnoreDifferences=true. */
export const ignoreWithoutRespect: Rule = {
  id: 'SA002',
  name: 'ignore-without-respect',
  severity: Severity.ERROR,
  summary: 'ignoreDifferences is set but the RespectIgnoreDifferences=true sync option is not.',
  explanation:
    'ignoreDifferences alone only changes the diff. When the app syncs for any other reason, Argo CD still '
    + 'applies the Git value of the ignored field, so an HPA\'s replica count or an injected sidecar is reverted '
    + '(argo-cd #6520, #7820). RespectIgnoreDifferences=true (Argo CD 2.3+) copies the live values of ignored '
    + 'fields into the object before applying it.',
  fix: 'Add "RespectIgnoreDifferences=true" to spec.syncPolicy.syncOptions.',
  check({ application }) {
    if (!application || listAt(application, 'spec', 'ignoreDifferences').length === 0) {
      return [];
    }
    if (syncOptionsOf(application).includes('RespectIgnoreDifferences=true')) {
      return [];
    }
    return [{
      object: application,
      path: '/spec/syncPolicy/syncOptions',
      message: 'ignoreDifferences hides fields from the diff, but a sync still overwrites them without RespectIgnoreDifferences=true',
      value: syncOptionsOf(application),
    }];
  },
};
