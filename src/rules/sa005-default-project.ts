import { Severity } from './severity';
import { Rule } from './types';
import { stringAt } from '../core/manifest';

/** An Application in the `default` AppProject. */
export const defaultProject: Rule = {
  id: 'SA005',
  name: 'default-project',
  severity: Severity.WARNING,
  summary: 'The Application belongs to the "default" project (or names none).',
  explanation:
    'The default AppProject allows every source repository, every destination and every resource kind, '
    + 'including cluster-scoped ones. An app in it is bounded by nothing but its own manifest.',
  fix: 'Create an AppProject for the team that owns the app and set spec.project to it.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const project = stringAt(application, 'spec', 'project');
    if (project !== undefined && project !== '' && project !== 'default') {
      return [];
    }
    return [{
      object: application,
      path: '/spec/project',
      message: project ? 'the app is in the "default" project, which allows every repository, destination and kind' : 'the app names no project, so it is in "default"',
      value: project,
    }];
  },
};
