import { excludeProblem } from './exclude';
import { ConfigSuppression } from './types';
import { ArgoCdVersion } from '../core/argocd-version';
import { isObject } from '../core/manifest';
import { parseYamlValue } from '../core/yaml-text';
import { findRule } from '../rules/registry';
import { Severity } from '../rules/severity';

/** The project's audit settings (`.safe-argocd.yaml` at the repository root). */
export interface AuditConfig {
  readonly suppressions: ConfigSuppression[];
  readonly failOn?: Severity;
  readonly argoCdVersion?: ArgoCdVersion;
  /** Globs of files and folders to leave out, as `--exclude` takes them. */
  readonly exclude?: readonly string[];
  /** Whether a file that cannot be read or parsed fails the run (exit 2). */
  readonly failOnUnreadable?: boolean;
  /** Whether the ApplicationSet controller runs with the new git file globbing (AuditOptions.newGitFileGlobbing). */
  readonly newGitFileGlobbing?: boolean;
}

const KEYS = ['suppressions', 'failOn', 'argocdVersion', 'exclude', 'failOnUnreadable', 'newGitFileGlobbing'];

/** The keys of the config file, for messages: `suppressions, failOn, ... and failOnUnreadable`. */
export const CONFIG_KEYS_TEXT = `${KEYS.slice(0, -1).join(', ')} and ${KEYS[KEYS.length - 1]}`;

export const CONFIG_FILE = '.safe-argocd.yaml';

/** How many of a config's unknown keys its error names. */
const MAX_NAMED = 5;

/**
 * Parses the config file:
 *
 * ```yaml
 * argocdVersion: "3.4"        # optional: as ArgoCdVersion.of reads it (3.4, 3.4.7, v3.2.1, 2.14.x)
 * failOn: warning             # optional: error, warning or note
 * failOnUnreadable: false     # optional: whether an unreadable file fails the run (exit 2)
 * newGitFileGlobbing: true    # optional: whether the ApplicationSet controller runs with the new git file globbing
 * exclude:                    # optional: globs of files and folders to leave out, unread
 *   - dashboards/**
 *   - grafana/*.json
 * suppressions:
 *   - ruleId: SA006
 *     reason: retries are handled by the release pipeline
 *     paths: [legacy/]        # optional: limit to these folders or files
 *     applications: [legacy]  # optional: limit to these Applications
 * ```
 *
 * @throws with every problem found, naming the entry and the fix
 */
export function parseAuditConfig(text: string, file: string = CONFIG_FILE): AuditConfig {
  let raw: unknown;
  try {
    // Every scalar as written: `argocdVersion: 3.10` must not become the number 3.1.
    raw = parseYamlValue(text, { maxAliasCount: 100, schema: 'failsafe' }) ?? {};
  } catch (e) {
    throw new Error(`${file}: not valid YAML: ${String((e as Error).message).split('\n')[0]}`);
  }
  if (!isObject(raw)) {
    throw new Error(`${file}: expected a mapping with ${KEYS.join(', ')}`);
  }
  const errors: string[] = [];
  const unknown = Object.keys(raw).filter((key) => !KEYS.includes(key));
  // A few named, the rest counted: a file of 15,000 stray keys is one short line, not a megabyte of them.
  for (const key of unknown.slice(0, MAX_NAMED)) {
    errors.push(`unknown key ${JSON.stringify(key)} (allowed: ${KEYS.join(', ')})`);
  }
  if (unknown.length > MAX_NAMED) {
    errors.push(`${unknown.length - MAX_NAMED} more unknown keys`);
  }
  // The failsafe schema reads every scalar as a string.
  const flag = (key: 'failOnUnreadable' | 'newGitFileGlobbing'): boolean | undefined => {
    const value = raw[key];
    if (value === undefined) {
      return undefined;
    }
    if (value !== 'true' && value !== 'false') {
      errors.push(`${key} is ${JSON.stringify(value)}; use true or false`);
    }
    return value === 'true';
  };
  const failOnUnreadable = flag('failOnUnreadable');
  const newGitFileGlobbing = flag('newGitFileGlobbing');
  let exclude: string[] | undefined;
  if (raw.exclude !== undefined && raw.exclude !== '') {
    if (!Array.isArray(raw.exclude) || raw.exclude.some((x) => typeof x !== 'string')) {
      errors.push('exclude must be a list of globs');
    } else {
      exclude = raw.exclude as string[];
      exclude.forEach((pattern, i) => {
        const problem = excludeProblem(pattern);
        if (problem) {
          errors.push(`exclude[${i}] ${JSON.stringify(pattern)} ${problem}`);
        }
      });
    }
  }
  let failOn: Severity | undefined;
  if (raw.failOn !== undefined) {
    failOn = Object.values(Severity).find((s) => s === raw.failOn);
    if (!failOn) {
      errors.push(`failOn is ${JSON.stringify(raw.failOn)}; use error, warning or note`);
    }
  }
  let argoCdVersion: ArgoCdVersion | undefined;
  if (raw.argocdVersion !== undefined) {
    try {
      // As written: a list or a mapping is refused as such, not read through its text.
      argoCdVersion = ArgoCdVersion.of(raw.argocdVersion as string);
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  const suppressions: ConfigSuppression[] = [];
  // The failsafe schema reads an empty value (`suppressions:` with every entry commented out) as ''.
  const list = raw.suppressions === undefined || raw.suppressions === '' ? [] : raw.suppressions;
  if (!Array.isArray(list)) {
    errors.push('suppressions must be a list');
  } else {
    list.forEach((s, i) => {
      const where = `suppressions[${i}]`;
      if (!isObject(s)) {
        errors.push(`${where} must be a mapping with ruleId and reason`);
        return;
      }
      if (typeof s.ruleId !== 'string' || !findRule(s.ruleId)) {
        errors.push(`${where}.ruleId ${JSON.stringify(s.ruleId)} is not a rule id (see RULES.md)`);
      }
      if (typeof s.reason !== 'string' || s.reason.trim().length < 10) {
        errors.push(`${where}.reason must say, in at least 10 characters, why the finding is acceptable`);
      }
      const strings = (v: unknown, key: string): string[] => {
        if (v === undefined || v === '') {
          return [];
        }
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
          errors.push(`${where}.${key} must be a list of strings`);
          return [];
        }
        return v as string[];
      };
      suppressions.push({
        ruleId: String(s.ruleId),
        reason: String(s.reason ?? '').trim(),
        paths: strings(s.paths, 'paths'),
        applications: strings(s.applications, 'applications'),
      });
    });
  }
  if (errors.length > 0) {
    throw new Error(`${file}: ${errors.join('; ')}`);
  }
  return {
    suppressions,
    failOn,
    argoCdVersion,
    ...(exclude ? { exclude } : {}),
    ...(failOnUnreadable !== undefined ? { failOnUnreadable } : {}),
    ...(newGitFileGlobbing !== undefined ? { newGitFileGlobbing } : {}),
  };
}
