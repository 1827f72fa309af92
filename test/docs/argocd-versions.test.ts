import { readFileSync } from 'fs';
import { join } from 'path';
import { FEATURES, OLDEST_RELEASE, compareReleases, releaseName } from '../../src/core/argocd-features';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { CRD_RELEASES } from '../support/crd';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The README's "Argo CD versions" section, up to the next heading. */
function section(): string {
  const start = README.indexOf('## Argo CD versions\n');
  expect(start).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end);
}

/** The cells of the table rows of `text` whose first cell matches `first`. */
function rows(text: string, first: RegExp): string[][] {
  return text.split('\n')
    .filter((line) => line.startsWith('| '))
    .map((line) => line.slice(2, -2).split(' | '))
    .filter((cells) => first.test(cells[0]));
}

describe('README: Argo CD versions', () => {
  test('the compatibility matrix has one row per known release, with its automated.enabled and the CRDs it is validated against', () => {
    // GIVEN the matrix rows of the README
    const matrix = rows(section(), /^\d+\.\d+( \(default\))?$/).filter((cells) => cells[2].startsWith('argo-cd v'));
    // WHEN compared with the releases the library renders for and the CRDs the tests read
    // THEN every release is there, in order, and says what is rendered and which CRD tag checks it
    expect(matrix).toEqual(ArgoCdVersion.all().map((v) => [
      v === ArgoCdVersion.LATEST ? `${v.version} (default)` : v.version,
      v.hasAutomatedEnabled ? '`true`' : 'not emitted',
      `argo-cd ${CRD_RELEASES[v.version]} Application and AppProject CRDs`,
    ]));
  });

  test('the table of changes lists every feature of the table in src/core that arrived within the known releases, with its source', () => {
    // GIVEN the features whose first release is a known one (older ones hold for every release)
    const within = FEATURES.filter((f) => compareReleases(f.since, OLDEST_RELEASE) > 0);
    const table = rows(section(), /^\d+\.\d+$/).filter((cells) => cells.length === 3 && cells[2].startsWith('argo-cd #'));
    // WHEN each is looked up by its first release and its argo-cd numbers
    for (const feature of within) {
      const numbers = [...feature.source.matchAll(/#(\d+)/g)].map((m) => m[1]);
      const row = table.find((cells) => cells[0] === releaseName(feature.since) && numbers.some((n) => cells[2].includes(`#${n}`)));
      // THEN the README has a row for it
      expect([feature.feature, row !== undefined]).toEqual([feature.feature, true]);
    }
    // and no row for a release or source the table does not have
    for (const cells of table) {
      const numbers = [...cells[2].matchAll(/#(\d+)/g)].map((m) => m[1]);
      expect([cells[0], within.some((f) => releaseName(f.since) === cells[0] && numbers.every((n) => f.source.includes(`#${n}`)))])
        .toEqual([cells[0], true]);
    }
  });
});
