import { readFileSync } from 'fs';
import { join } from 'path';
import { renderRulesMarkdown } from '../../src/rules/docs';
import { ALL_RULES, findRule } from '../../src/rules/registry';
import { Severity } from '../../src/rules/severity';

const ids = ALL_RULES.map((r) => r.id);

describe('rule registry', () => {
  test('ids are unique, SA and three digits, in ascending order', () => {
    // GIVEN the registry
    // WHEN
    const sorted = [...ids].sort();
    // THEN
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^SA\d{3}$/);
    }
    expect(ids).toEqual(sorted);
  });

  test.each(ALL_RULES.map((r) => [r.id, r] as const))('%s documents itself', (_, rule) => {
    // GIVEN / WHEN the rule's metadata
    // THEN
    expect(rule.name).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(Object.values(Severity)).toContain(rule.severity);
    for (const text of [rule.summary, rule.explanation, rule.fix]) {
      expect(text.trim()).not.toBe('');
    }
  });

  test.each(ids)('findRule finds %s', (id) => {
    // GIVEN / WHEN
    const rule = findRule(id);
    // THEN
    expect(rule?.id).toBe(id);
  });

  test.each(['SA999', 'sa001', ''])('findRule returns undefined for %j', (id) => {
    // GIVEN / WHEN
    const rule = findRule(id);
    // THEN
    expect(rule).toBeUndefined();
  });

  test('the committed RULES.md is what the registry renders', () => {
    // GIVEN
    const committed = readFileSync(join(__dirname, '..', '..', 'RULES.md'), 'utf-8');
    // WHEN
    const rendered = renderRulesMarkdown(ALL_RULES);
    // THEN
    const problem = committed === rendered ? '' : 'RULES.md is stale: run `npx projen rules-doc`';
    expect(problem).toBe('');
  });
});
