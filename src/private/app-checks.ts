import { IConstruct } from 'constructs';
import { badValue, ErrorCode } from '../core/errors';
import { hasAction } from '../core/go-template';
import { isDns1123Subdomain, isDns1123Label, isGitRepoUrl, suggestDns1123Label } from '../core/names';
import { refusedRevisionProblem } from '../core/revisions';
import { IArgoProject } from '../values/argo-project';
import { IgnoreRule } from '../values/ignore-rule';

/**
 * Checks of the props every Application-rendering construct shares, with the same codes and messages
 * wherever they are used.
 */

/** A name or namespace that must be a DNS-1123 label ([SAFE-004] for a prop named like a namespace, else [SAFE-001]). */
export function checkLabel(scope: IConstruct, prop: string, value: string, what: string): string {
  if (typeof value !== 'string' || !isDns1123Label(value)) {
    throw badValue(prop.toLowerCase().includes('namespace') ? ErrorCode.INVALID_NAMESPACE : ErrorCode.INVALID_NAME, scope, prop, value,
      `must be ${what} that is a DNS-1123 label: lowercase letters, digits and "-", starting and ending with a letter or digit, at most 63 characters`, `use e.g. ${JSON.stringify(suggestDns1123Label(String(value ?? '')))}`);
  }
  return value;
}

/** The project's name; `default` and a missing project are refused with [SAFE-002]. */
export function checkProject(scope: IConstruct, project: IArgoProject): string {
  const name = project?.projectName;
  if (name === undefined || name === '' || name === 'default') {
    throw badValue(ErrorCode.DEFAULT_PROJECT, scope, 'project', name,
      'must name an AppProject other than "default", which allows every repository, destination and kind', 'pass ArgoProject.fromName(\'<team project>\')');
  }
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    throw badValue(ErrorCode.INVALID_NAME, scope, 'project', name,
      'must be an AppProject name (lowercase letters, digits, "-" and ".")', 'pass ArgoProject.fromName(\'<team project>\') or a SafeProject');
  }
  return name;
}

/** A repository URL Argo CD can read, else [SAFE-003]. */
export function checkRepoUrl(scope: IConstruct, url: string): string {
  // A Git repository, or an OCI registry of Helm charts.
  const ok = isGitRepoUrl(url) || (typeof url === 'string' && /^oci:\/\/\S+$/.test(url));
  if (!ok) {
    throw badValue(ErrorCode.INVALID_URL, scope, 'repoUrl', url,
      'must be a repository URL Argo CD can read (https://, ssh://, oci:// or git@host:path)', 'give the URL of the repository as it is registered in Argo CD');
  }
  return url;
}

/**
 * A rule built with an IgnoreRule factory, else [SAFE-008].
 *
 * @param target how the fix's example builds the rule's target, e.g. `IgnoreTarget.fromApiObject(x)`
 */
export function checkIgnoreRule(scope: IConstruct, prop: string, rule: IgnoreRule, target: string): IgnoreRule {
  if (!(rule instanceof IgnoreRule)) {
    throw badValue(ErrorCode.INVALID_IGNORE_TARGET, scope, prop, rule,
      prop === 'ignoreRules' ? 'must hold rules built with an IgnoreRule factory' : 'must be built with an IgnoreRule factory', `use IgnoreRule.jsonPointer(${target}, '/spec/replicas', 'reason') or another factory`);
  }
  return rule;
}

/**
 * Why a Git revision that every generated Application (or a generator) reads is refused, or undefined: it must be a
 * string without template actions (`templated` says why), and is otherwise refused as a SafeApplication's is.
 */
export function fixedRevisionProblem(revision: unknown, templated: string): string | undefined {
  return typeof revision !== 'string' ? 'is not a string'
    : hasAction(revision) ? `contains a template action: ${templated}`
      : refusedRevisionProblem(revision, false);
}
