import { JqPath } from '../../src/values/jq-path';

/** The refusal of `prop` given to `where`, with the value as shown. */
function keysRefusal(where: string, prop: string, shown: string): string {
  return `[SAFE-009] ${where}: ${prop} is ${shown}; it must be a non-empty list of non-empty keys. `
    + 'Fix: name every key on the way to the field, e.g. ["spec", "replicas"]';
}

describe('JqPath.listItem refusals name the argument at fault', () => {
  test('fails when the match key is empty, naming matchKey', () => {
    // GIVEN a list and an empty match key
    // WHEN the path is made THEN matchKey is refused
    expect(() => JqPath.listItem(['spec', 'ports'], '', 'http')).toThrow(keysRefusal('JqPath.listItem', 'matchKey', '[""]'));
  });

  test('fails when the match key is not a string, naming matchKey', () => {
    expect(() => JqPath.listItem(['spec', 'ports'], 7 as never, 'http')).toThrow(keysRefusal('JqPath.listItem', 'matchKey', '[7]'));
  });

  test('fails when itemKeys holds an empty key, naming itemKeys', () => {
    // GIVEN a valid list and match, and an empty key inside the item
    // WHEN the path is made THEN itemKeys is refused
    expect(() => JqPath.listItem(['spec', 'ports'], 'name', 'http', ['port', ''])).toThrow(keysRefusal('JqPath.listItem', 'itemKeys', '["port",""]'));
  });

  test('fails when listKeys is empty, naming listKeys', () => {
    expect(() => JqPath.listItem([], 'name', 'http')).toThrow(keysRefusal('JqPath.listItem', 'listKeys', '[]'));
  });
});

describe('JqPath.listItemsField and field refusals name the argument at fault', () => {
  test('fails when listKeys holds an empty key, naming listKeys', () => {
    expect(() => JqPath.listItemsField(['webhooks', ''], ['failurePolicy'])).toThrow(keysRefusal('JqPath.listItemsField', 'listKeys', '["webhooks",""]'));
  });

  test('fails when itemKeys is empty, naming itemKeys', () => {
    expect(() => JqPath.listItemsField(['webhooks'], [])).toThrow(keysRefusal('JqPath.listItemsField', 'itemKeys', '[]'));
  });

  test('fails when keys is not a list, naming keys', () => {
    expect(() => JqPath.field('spec' as never)).toThrow(keysRefusal('JqPath.field', 'keys', '"spec"'));
  });
});
