import * as fc from 'fast-check';
import { escapeToken, keysFromPointer, pointerFromKeys, pointerProblem, unescapeToken } from '../../src/core/json-pointer';

describe('pointerProblem', () => {
  test.each(['/spec/replicas', '/metadata/annotations/a~1b', '/a~0b', '/', '//', '/~01'])('accepts %p', (pointer) => {
    // GIVEN / WHEN / THEN a well-formed pointer has no problem
    expect(pointerProblem(pointer)).toBeUndefined();
  });

  test.each([
    ['', /whole document/],
    ['spec/replicas', /starts with "\/"/],
    ['/a~2b', /must be escaped/],
    ['/a~', /must be escaped/],
    ['/a~/b', /must be escaped/],
  ])('explains what is wrong with %p', (pointer, why) => {
    // GIVEN / WHEN / THEN a malformed pointer's problem is explained
    expect(pointerProblem(pointer)).toMatch(why);
  });
});

describe('escapeToken / unescapeToken', () => {
  test('escape "~" first, so "/" never turns into "~01"', () => {
    // GIVEN / WHEN / THEN the two escapes do not interfere
    expect(escapeToken('a~b/c')).toBe('a~0b~1c');
    expect(escapeToken('~1')).toBe('~01');
    expect(unescapeToken('~01')).toBe('~1');
    expect(unescapeToken('a~0b~1c')).toBe('a~b/c');
  });
});

describe('pointerFromKeys / keysFromPointer', () => {
  test('builds the documented pointer', () => {
    // GIVEN keys with "/" and "~"
    // WHEN a pointer is built
    // THEN they are escaped
    expect(pointerFromKeys(['metadata', 'annotations', 'acme.internal/a~b'])).toBe('/metadata/annotations/acme.internal~1a~0b');
    expect(keysFromPointer('/metadata/annotations/acme.internal~1a~0b')).toEqual(['metadata', 'annotations', 'acme.internal/a~b']);
  });

  test('maps the empty pointer to no keys and back', () => {
    // GIVEN / WHEN / THEN the whole-document pointer is the empty key list
    expect(keysFromPointer('')).toEqual([]);
    expect(pointerFromKeys([])).toBe('');
  });

  test.each([
    [['spec', 'replicas']],
    [['~']],
    [['/']],
    [['~1']],
    [['~0']],
    [['a/b~c', '', '~~//']],
    [['']],
  ])('round-trips %j', (keys) => {
    // GIVEN keys
    // WHEN they go to a pointer and back
    const pointer = pointerFromKeys(keys);
    // THEN the pointer is well formed and gives the same keys
    expect(pointerProblem(pointer)).toBeUndefined();
    expect(keysFromPointer(pointer)).toEqual(keys);
  });

  test('round-trips generated keys made mostly of "~" and "/" (property, 200 runs)', () => {
    // GIVEN any list of at least one key over an alphabet rich in "~", "/", "0" and "1"
    const keyLists = fc.array(fc.string({ unit: fc.constantFrom('~', '/', '0', '1', 'a', 'é') }), { minLength: 1, maxLength: 5 });
    // WHEN / THEN every one round-trips through a well-formed pointer
    fc.assert(
      fc.property(keyLists, (keys) => {
        const pointer = pointerFromKeys(keys);
        expect(pointerProblem(pointer)).toBeUndefined();
        expect(keysFromPointer(pointer)).toEqual(keys);
      }),
      { numRuns: 200, seed: 6901 },
    );
  });
});
