import { at, isApplication, isObject, LocatedManifest, readSourcesOf, stringAt } from '../core/manifest';
import { parseYamlValue } from '../core/yaml-text';

/**
 * The argocd-cmd-params-cm key that makes the ApplicationSet controller glob a git files generator's paths with
 * doublestar (`*` within one folder, `**` across folders) instead of `git ls-files` pathspecs (`*` across folders).
 * Off by default; the controller reads it as ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_NEW_GIT_FILE_GLOBBING.
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Git-File-Globbing/
 */
export const NEW_GIT_FILE_GLOBBING = 'applicationsetcontroller.enable.new.git.file.globbing';

/** What the audited files say of {@link NEW_GIT_FILE_GLOBBING}. */
export interface GlobbingSetting {
  /** Whether the controller globs with doublestar: false unless the files agree that it does. */
  readonly enabled: boolean;
  /** Each place that sets it, `file (where)`, sorted. */
  readonly setBy: readonly string[];
  /** Whether the places set it to different values (several Argo CD installations, say): then the default is kept. */
  readonly conflicting: boolean;
}

/** A Helm value file of the audited files: its path and its text. */
export interface ValueFile {
  readonly path: string;
  readonly text: string;
}

/**
 * Reads {@link NEW_GIT_FILE_GLOBBING} where a repository that installs Argo CD sets it: an `argocd-cmd-params-cm`
 * ConfigMap's data, or `configs.params` of the argo-cd chart's values (in an Application of that chart, or in a value
 * file, at its top or under the key of a chart that depends on it).
 */
export function readGitFileGlobbing(objects: readonly LocatedManifest[], valueFiles: readonly ValueFile[]): GlobbingSetting {
  const found: { where: string; value: boolean }[] = [];
  for (const { manifest, location } of objects) {
    if (manifest.kind === 'ConfigMap' && stringAt(manifest, 'metadata', 'name') === 'argocd-cmd-params-cm') {
      const value = settingOf(at(manifest, 'data', NEW_GIT_FILE_GLOBBING));
      if (value !== undefined) {
        found.push({ where: `${location.file} (ConfigMap argocd-cmd-params-cm)`, value });
      }
    }
    if (!isApplication(manifest)) {
      continue;
    }
    for (const { source, path } of readSourcesOf(manifest)) {
      if (source.chart !== 'argo-cd') {
        continue;
      }
      const inline = typeof at(source, 'helm', 'values') === 'string' ? parsed(at(source, 'helm', 'values') as string) : undefined;
      for (const [values, field] of [[at(source, 'helm', 'valuesObject'), 'valuesObject'], [inline, 'values']] as const) {
        const value = settingOf(at(values, 'configs', 'params', NEW_GIT_FILE_GLOBBING));
        if (value !== undefined) {
          found.push({ where: `${location.file} (Application ${stringAt(manifest, 'metadata', 'name') ?? ''}, ${path}/helm/${field})`, value });
        }
      }
    }
  }
  for (const file of valueFiles) {
    if (!file.text.includes(NEW_GIT_FILE_GLOBBING)) {
      continue;
    }
    const values = parsed(file.text);
    // At the top of the argo-cd chart's values, or under the key of a chart that depends on it (`argo-cd:`).
    const candidates = [values, ...isObject(values) ? Object.values(values) : []];
    for (const candidate of candidates) {
      const value = settingOf(at(candidate, 'configs', 'params', NEW_GIT_FILE_GLOBBING));
      if (value !== undefined) {
        found.push({ where: `${file.path} (configs.params)`, value });
      }
    }
  }
  const values = new Set(found.map((f) => f.value));
  const setBy = [...new Set(found.map((f) => f.where))].sort();
  return { enabled: values.size === 1 && values.has(true), setBy, conflicting: values.size > 1 };
}

/** A value as the controller reads it: Go's strconv.ParseBool of the text Helm or the ConfigMap gives it; anything else is the default, false. */
function settingOf(value: unknown): boolean | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  const text = String(value);
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text);
}

function parsed(text: string): unknown {
  try {
    return parseYamlValue(text, { maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}
