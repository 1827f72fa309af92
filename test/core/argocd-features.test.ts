import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import {
  ArgoCdFeature, compareReleases, FEATURES, featureRow, hasFeature, KNOWN_RELEASES, NEWEST_RELEASE, OLDEST_RELEASE, parseRelease,
  Release, releaseName, standingOf,
} from '../../src/core/argocd-features';
import { CRD_RELEASES, CRD_ROOT } from '../support/crd';

const r = (major: number, minor: number): Release => ({ major, minor });

describe('the release list', () => {
  test('runs from 2.14 to 3.5, every minor once, oldest first', () => {
    expect(KNOWN_RELEASES.map(releaseName)).toEqual(['2.14', '3.0', '3.1', '3.2', '3.3', '3.4', '3.5']);
    expect([releaseName(OLDEST_RELEASE), releaseName(NEWEST_RELEASE)]).toEqual(['2.14', '3.5']);
    for (let i = 1; i < KNOWN_RELEASES.length; i++) {
      expect(compareReleases(KNOWN_RELEASES[i - 1], KNOWN_RELEASES[i])).toBeLessThan(0);
    }
  });

  test('compareReleases compares the major first, then the minor as a number', () => {
    expect(compareReleases(r(3, 10), r(3, 9))).toBeGreaterThan(0);
    expect(compareReleases(r(2, 14), r(3, 0))).toBeLessThan(0);
    expect(compareReleases(r(3, 4), r(3, 4))).toBe(0);
    expect(compareReleases(r(4, 0), r(3, 99))).toBeGreaterThan(0);
  });

  test.each([
    ['3.4', r(3, 4)], ['3.4.7', r(3, 4)], ['v3.2.1', r(3, 2)], ['2.14.x', r(2, 14)], [' 3.10 ', r(3, 10)], ['0.0', r(0, 0)], ['3.4.0', r(3, 4)],
  ])('parseRelease reads %p', (text, expected) => {
    expect(parseRelease(text)).toEqual(expected);
  });

  test.each(['3', '3.4.7.1', 'latest', '3.04', '03.4', '3.4.07', '3.4.x.1', 'v', '3.', '.4', '3.4-rc1', 'V3.4', 'v 3.4', ''])(
    'parseRelease refuses %p', (text) => {
      expect(parseRelease(text)).toBeUndefined();
    });

  test.each([
    [r(2, 14), 'known'], [r(3, 2), 'known'], [r(3, 5), 'known'],
    [r(2, 13), 'tooOld'], [r(1, 99), 'tooOld'], [r(0, 0), 'tooOld'],
    [r(2, 15), 'noSuchRelease'], [r(2, 99), 'noSuchRelease'],
    [r(3, 6), 'newerMinor'], [r(3, 10), 'newerMinor'],
    [r(4, 0), 'newerMajor'], [r(10, 1), 'newerMajor'],
  ])('standingOf %p is %p', (release, standing) => {
    expect(standingOf(release)).toBe(standing);
  });
});

describe('the feature table', () => {
  /** The first release of each feature, as the sources in the table show it (written out here, not read from the table). */
  const EXPECTED: Record<ArgoCdFeature, string> = {
    automatedEnabled: '3.1',
    uiKeepsAutomatedOnToggle: '3.2',
    preDeleteHooks: '3.3',
    deleteHookLists: '3.3',
    statusIgnoredForAllResources: '3.0',
    annotationTrackingByDefault: '3.0',
    postDeleteHooks: '2.10',
    ignoreApplicationDifferences: '2.9',
    skipReconcileAnnotation: '2.7',
    goTemplateOptions: '2.8',
    respectIgnoreDifferences: '2.3',
    clientSideApplyMigrationOption: '3.1',
    applicationPruneDeleteOptions: '3.4',
    syncWindowAndOperator: '3.0',
    multipleSources: '2.6',
    multiSourceRollback: '2.12',
    gitFilesExclude: '3.1',
    rollingSyncDeletionOrder: '3.2',
    rollingSyncKeepsAutomatedBlock: '3.3',
  };

  test('has one row per feature, with the first release its sources show', () => {
    expect(Object.fromEntries(FEATURES.map((f) => [f.feature, releaseName(f.since)]))).toEqual(EXPECTED);
    expect(new Set(FEATURES.map((f) => f.feature)).size).toBe(FEATURES.length);
  });

  test('every row names an argo-cd pull request or issue, the release it shipped in, and a file or doc page', () => {
    for (const row of FEATURES) {
      expect([row.feature, row.source]).toEqual([row.feature, expect.stringMatching(/argo-cd #\d+/)]);
      expect([row.feature, row.source]).toEqual([row.feature, expect.stringContaining(`(v${releaseName(row.since)}.0)`)]);
      expect([row.feature, row.source]).toEqual([row.feature, expect.stringMatching(/\b[\w-]+\/[\w./-]+\.(go|md|yaml|tsx)\b/)]);
      expect(row.description.length).toBeGreaterThan(20);
    }
  });

  test.each(Object.entries(EXPECTED))('hasFeature(%s) is false just before %s and true from it on', (feature, since) => {
    const first = parseRelease(since)!;
    for (const release of [...KNOWN_RELEASES, r(3, 6), r(3, 10)]) {
      expect([releaseName(release), hasFeature(release, feature as ArgoCdFeature)])
        .toEqual([releaseName(release), compareReleases(release, first) >= 0]);
    }
    expect(hasFeature(first, feature as ArgoCdFeature)).toBe(true);
    expect(hasFeature(first.minor > 0 ? r(first.major, first.minor - 1) : r(first.major - 1, 99), feature as ArgoCdFeature)).toBe(false);
  });

  test('featureRow fails on a name that has no row', () => {
    expect(() => featureRow('nope' as ArgoCdFeature)).toThrow('no row for Argo CD feature "nope"');
  });

  /** The served schema of one CRD of one release, as the file in schemas/ has it. */
  function schemaOf(kind: string, release: string): any {
    const crd = parse(readFileSync(join(CRD_ROOT, CRD_RELEASES[release], `${kind}-crd.yaml`), 'utf8'));
    return crd.spec.versions.find((v: any) => v.served).schema.openAPIV3Schema;
  }

  test('every field the table renders is in the Application CRD of exactly the releases that have the feature', () => {
    // GIVEN the rows that decide a rendered field
    const rendered = FEATURES.filter((f) => f.renders !== undefined);
    expect(rendered.map((f) => f.renders)).toEqual(['spec.syncPolicy.automated.enabled']);
    for (const row of rendered) {
      for (const release of KNOWN_RELEASES) {
        // WHEN the field is looked up in that release's CRD
        let schema = schemaOf('application', releaseName(release));
        for (const key of row.renders!.split('.')) {
          schema = schema?.properties?.[key];
        }
        // THEN it is there exactly from the feature's first release
        const name = releaseName(release);
        expect([row.feature, name, schema !== undefined]).toEqual([row.feature, name, hasFeature(release, row.feature)]);
      }
    }
  });
});

describe('src/core', () => {
  test('imports nothing from the rest of src/: it is the bottom layer', () => {
    const dir = join(__dirname, '..', '..', 'src', 'core');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('argocd-features.ts');
    for (const file of files) {
      const imports = [...readFileSync(join(dir, file), 'utf8').matchAll(/\bfrom\s+'([^']+)'|\brequire\('([^']+)'\)|\bimport\('([^']+)'\)/g)]
        .map((m) => m[1] ?? m[2] ?? m[3]);
      expect([file, imports.filter((i) => i.startsWith('.') && !i.startsWith('./'))]).toEqual([file, []]);
    }
  });
});
