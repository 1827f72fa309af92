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
});
