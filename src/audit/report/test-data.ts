import { compareStrings } from '../../core/order';
import { AuditFinding } from '../types';

/**
 * Folder names that hold test inputs by convention (`tests/fixtures`, Go's `testdata`): a linter's or a chart's
 * tests read them, and Argo CD applies them only when an Application points there.
 */
const TEST_DATA_FOLDERS: ReadonlySet<string> = new Set(['fixtures', '__fixtures__', 'test-fixtures', 'test_fixtures', 'testdata']);
/** Folders named in the hint; the rest are counted. */
const FOLDERS_SHOWN = 3;

/** Findings in folders of test data: how many, in which folders, and the folder names to exclude. */
export interface TestDataHint {
  readonly findings: number;
  /** The folders, each up to its test-data name (`bazel/semgrep/tests/fixtures`), the first {@link FOLDERS_SHOWN} by path. */
  readonly folders: readonly string[];
  /** How many more folders there are. */
  readonly moreFolders: number;
  /** The exclude patterns that leave them all out (`**` + `/fixtures`). */
  readonly excludes: readonly string[];
}

/**
 * The findings in folders of test data, when any are: a repository's own test inputs can make up most of its findings
 * on a first run. Only a hint: an Application may deploy from such a folder, which only the user knows.
 */
export function testDataHint(findings: readonly AuditFinding[]): TestDataHint | undefined {
  const folders = new Set<string>();
  const names = new Set<string>();
  let count = 0;
  for (const f of findings) {
    const parts = f.location.file.split('/');
    // A folder of the path, not the file's own name.
    const at = parts.findIndex((part, i) => i < parts.length - 1 && TEST_DATA_FOLDERS.has(part));
    if (at < 0) {
      continue;
    }
    count++;
    folders.add(parts.slice(0, at + 1).join('/'));
    names.add(parts[at]);
  }
  return count === 0 ? undefined : folderHint(count, folders, [...names].sort(compareStrings).map((name) => `**/${name}`));
}

/** A hint of `count` findings in `folders`, the first {@link FOLDERS_SHOWN} of them named. */
function folderHint(count: number, folders: ReadonlySet<string>, excludes: readonly string[]): TestDataHint {
  const sorted = [...folders].sort(compareStrings);
  return { findings: count, folders: sorted.slice(0, FOLDERS_SHOWN), moreFolders: Math.max(0, sorted.length - FOLDERS_SHOWN), excludes };
}

/** A hint's folders and exclude flags in words, with `show` applied to each (escaping for the report's format). */
function shownHint(hint: TestDataHint, show: (text: string) => string): { folders: string; flags: string } {
  return {
    folders: hint.folders.map(show).join(', ') + (hint.moreFolders > 0 ? ` and ${hint.moreFolders} more` : ''),
    flags: hint.excludes.map((p) => `--exclude ${show(`'${p}'`)}`).join(' '),
  };
}

/** The hint in words, with `show` applied to each folder and pattern (escaping for the report's format). */
export function testDataHintText(hint: TestDataHint, show: (text: string) => string): string {
  const { folders, flags } = shownHint(hint, show);
  return `${hint.findings} finding(s) are in folders of test data (${folders}): if Argo CD never applies them, leave them out with ${flags}, `
    + 'or the same under exclude: in .safe-argocd.yaml';
}

/**
 * The findings in folders whose Argo CD objects nothing in the audited files deploys (AuditResult.undeployedFolders),
 * when any are: switched-off Applications kept beside the live ones. Only a hint: a script may apply them by hand.
 */
export function undeployedHint(findings: readonly AuditFinding[], undeployed: readonly string[] | undefined): TestDataHint | undefined {
  if (undeployed === undefined || undeployed.length === 0) {
    return undefined;
  }
  const hit = new Set<string>();
  let count = 0;
  for (const f of findings) {
    const folder = undeployed.find((u) => f.location.file.startsWith(`${u}/`));
    if (folder !== undefined) {
      count++;
      hit.add(folder);
    }
  }
  return count === 0 ? undefined : folderHint(count, hit, [...hit].sort(compareStrings).map((folder) => `${folder}/**`));
}

/** The hint for Argo CD objects in Helm charts (AuditResult.chartArgoCdFiles), with `show` applied to each file named. */
export function chartHintText(files: readonly string[], show: (text: string) => string): string {
  const named = files.slice(0, 3).map(show).join(', ') + (files.length > 3 ? ', ...' : '');
  return `${files.length} Helm chart file(s) hold Argo CD objects (${named}), which the audit does not render: give what Argo CD renders `
    + 'for the Application that deploys the chart with --rendered <application>=<file>, or audit the output of helm template';
}

/** The undeployed hint in words, with `show` applied to each folder and pattern. */
export function undeployedHintText(hint: TestDataHint, show: (text: string) => string): string {
  const { folders, flags } = shownHint(hint, show);
  return `${hint.findings} finding(s) are in folders whose Argo CD objects no Application here deploys, while a root deploys others `
    + `(${folders}): if they are switched off, leave them out with ${flags}, or the same under exclude: in .safe-argocd.yaml`;
}
