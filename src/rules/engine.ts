import { SYNTH_RULES } from './registry';
import { Finding, Rule, RuleInput } from './types';
import { Manifest } from '../core/manifest';
import { suppressionsOf } from '../core/suppressions';

/**
 * Runs rules (by default those a synth runs) over one Application and its manifests. Findings keep the rules' order, then the order the
 * rule reported them; a finding whose object carries a reasoned suppression for its rule is marked, not dropped.
 */
export function runRules(input: RuleInput, rules: readonly Rule[] = SYNTH_RULES): Finding[] {
  const suppressionCache = new Map<Manifest, Map<string, string>>();
  const findings: Finding[] = [];
  for (const rule of rules) {
    for (const violation of rule.check(input)) {
      let suppressions = suppressionCache.get(violation.object);
      if (!suppressions) {
        suppressions = suppressionsOf(violation.object);
        suppressionCache.set(violation.object, suppressions);
      }
      const reason = suppressions.get(rule.id);
      findings.push(reason === undefined ? { ...violation, rule } : { ...violation, rule, suppressedBecause: reason });
    }
  }
  return findings;
}

/** Findings no suppression silenced. */
export function unsuppressed(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.suppressedBecause === undefined);
}
