import * as yaml from 'yaml';
import { parseManifests } from '../../src/core/parse-manifests';

// The careful parser, counted: it delegates to the real one.
jest.mock('yaml', () => {
  const actual = jest.requireActual('yaml');
  return { ...actual, parseAllDocuments: jest.fn(actual.parseAllDocuments) };
});
const careful = yaml.parseAllDocuments as unknown as jest.Mock;

const CRON = 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: report # runs *nightly* & on demand\nspec:\n  schedule: "0 4 * * *"\n'
  + '  jobTemplate:\n    metadata:\n      annotations:\n        paths: "**/workflows/**"\n';

describe('parseManifests: stars and ampersands that are no anchors', () => {
  beforeEach(() => careful.mockClear());

  test('a file whose * and & are only in strings and comments is read by the fast path, as written', () => {
    // GIVEN a cron string, a glob and a comment, none of them an anchor or an alias
    // WHEN it is parsed
    const parsed = parseManifests('cron.yaml', Buffer.from(CRON));
    // THEN the careful parser is never called, and the values are read
    expect(careful).not.toHaveBeenCalled();
    expect(parsed.objects.map((o) => (o.manifest.spec as { schedule: string }).schedule)).toEqual(['0 4 * * *']);
  });

  test('a real anchor beside such comments still takes the careful path, which bounds aliases', () => {
    const parsed = parseManifests('anchored.yaml', Buffer.from(`${CRON}  template: &t\n    a: 1\n  copy: *t\n`));
    expect(careful).toHaveBeenCalled();
    expect(parsed.objects).toHaveLength(1);
    expect((parsed.objects[0].manifest.spec as { copy: unknown }).copy).toEqual({ a: 1 });
  });

  test('anchors in a file that holds no Kubernetes object need no careful reading: its documents are skipped, counted', () => {
    // GIVEN a CI pipeline that shares its settings by anchors, used more than the careful path's 1,000 aliases a document
    const jobs = Array.from({ length: 1200 }, (_, i) => `job-${i}:\n  <<: *defaults\n  script: [make test-${i}]\n`).join('');
    const pipeline = `.defaults: &defaults\n  image: node:20\n  tags: [linux]\n${jobs}`;
    // WHEN it is parsed
    const parsed = parseManifests('.gitlab-ci.yml', Buffer.from(pipeline));
    // THEN js-yaml's reading is enough: no careful parse, no problem, the one document skipped
    expect(careful).not.toHaveBeenCalled();
    expect(parsed).toEqual({ objects: [], skipped: 1 });
  });

  test('anchors in a file whose aliases make a Kubernetes object still take the careful path', () => {
    // GIVEN the apiVersion and kind of a ConfigMap, and the same for a kustomization without them, brought in by a merge key
    const merged = 'x-base: &base {apiVersion: v1, kind: ConfigMap}\n<<: *base\nmetadata: {name: settings}\n';
    const kustomization = 'common: &c [a.yaml]\nresources: *c\n';
    // WHEN they are parsed
    const parsed = parseManifests('merged.yaml', Buffer.from(merged));
    const built = parseManifests('kustomization.yaml', Buffer.from(kustomization));
    // THEN both took the careful path, which placed the object and the kustomization
    expect(careful).toHaveBeenCalledTimes(2);
    expect(parsed.objects.map((o) => [o.manifest.kind, (o.manifest.metadata as { name: string }).name, o.location.line])).toEqual([['ConfigMap', 'settings', 1]]);
    expect(built.objects.map((o) => o.manifest.resources)).toEqual([['a.yaml']]);
  });
});
