import { SYNTH_RULES } from './registry';
import { ApplicationSite, Finding, Rule, RuleInput, Violation } from './types';
import { Manifest } from '../core/manifest';
import { suppressionsOf } from '../core/suppressions';

/**
 * Runs rules (by default those a synth runs) over one Application and its manifests. Findings keep the rules' order, then the order the
 * rule reported them; a finding whose object carries a reasoned suppression for its rule is marked, not dropped.
 */
export function runRules(input: RuleInput, rules: readonly Rule[] = SYNTH_RULES): Finding[] {
  return applySuppressions(rules, (rule) => rule.check(input));
}

/**
 * Runs the cross-application rules among `rules` (those with `checkAcross`) once over every Application of an
 * audit; suppressions apply as in {@link runRules}.
 */
export function runRulesAcross(applications: readonly ApplicationSite[], rules: readonly Rule[]): Finding[] {
  return applySuppressions(rules, (rule) => (rule.checkAcross ? rule.checkAcross(applications) : []));
}

function applySuppressions(rules: readonly Rule[], check: (rule: Rule) => Violation[]): Finding[] {
  const suppressionCache = new Map<Manifest, Map<string, string>>();
  const findings: Finding[] = [];
  for (const rule of rules) {
    for (const violation of check(rule)) {
      let suppressions = suppressionCache.get(violation.object);
      if (!suppressions) {
        suppressions = suppressionsOf(violation.object);
        suppressionCache.set(violation.object, suppressions);
      }
      findings.push(findingOf(violation, rule, suppressions.get(rule.id)));
    }
  }
  return findings;
}

/**
 * The violation's fields, its rule and the reason of its suppression. Copied by name: a spread of violations of many
 * shapes goes through V8's slowest path, microseconds a finding, and a bomb has tens of thousands of them.
 */
function findingOf(violation: Violation, rule: Rule, reason: string | undefined): Finding {
  // In the order a spread gave: the violation's fields, then the rule.
  const finding = { object: violation.object, path: violation.path, message: violation.message } as { -readonly [K in keyof Finding]: Finding[K] };
  if (hasOwnProperty.call(violation, 'value')) {
    finding.value = violation.value;
  }
  finding.rule = rule;
  if (reason !== undefined) {
    finding.suppressedBecause = reason;
  }
  return finding;
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** Findings no suppression silenced. */
export function unsuppressed(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.suppressedBecause === undefined);
}
