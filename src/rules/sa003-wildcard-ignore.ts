import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isObject, listAt } from '../core/manifest';
import { hasGlob } from '../core/names';

/** An ignoreDifferences entry that matches more than one concrete resource. */
export const wildcardIgnore: Rule = {
  id: 'SA003',
  name: 'wildcard-or-unscoped-ignore',
  severity: Severity.ERROR,
  summary: 'An ignoreDifferences entry uses a glob group or kind, or names no resource.',
  explanation:
    'Argo CD matches group and kind by glob and treats a missing name as "every object of this kind". '
    + 'Such an entry silences the same field on resources nobody meant to cover, so a human\'s change to them '
    + 'is never reported or reverted. Every entry should name one group, one kind and one object.',
  fix: 'Give the entry a concrete group (omit it for the core group), kind and name, and one entry per resource.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    listAt(application, 'spec', 'ignoreDifferences').forEach((entry, i) => {
      const path = `/spec/ignoreDifferences/${i}`;
      if (!isObject(entry)) {
        found.push({ object: application, path, message: 'the ignoreDifferences entry is not an object', value: entry });
        return;
      }
      for (const field of ['group', 'kind']) {
        const value = entry[field];
        if (typeof value === 'string' && hasGlob(value)) {
          found.push({ object: application, path: `${path}/${field}`, message: `${field} ${JSON.stringify(value)} is a glob and matches more than one kind of resource`, value });
        }
      }
      if (typeof entry.kind !== 'string' || entry.kind.length === 0) {
        found.push({ object: application, path: `${path}/kind`, message: 'the entry names no kind', value: entry.kind });
      }
      if (typeof entry.name !== 'string' || entry.name.length === 0) {
        found.push({ object: application, path: `${path}/name`, message: `the entry for kind ${JSON.stringify(entry.kind ?? '')} names no object, so it applies to every one`, value: entry.name });
      }
    });
    return found;
  },
};
