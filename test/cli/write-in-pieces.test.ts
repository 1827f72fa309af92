import { writeInPieces } from '../../src/cli/node-io';

function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = [];
  writeInPieces((piece) => pieces.push(piece), text, size);
  return pieces;
}

describe('writeInPieces', () => {
  test('writes a short text in one piece, as it is', () => {
    // GIVEN a text shorter than a piece
    // WHEN it is written
    // THEN it is one write of the same text
    expect(piecesOf('3 error(s)\n', 64)).toEqual(['3 error(s)\n']);
  });

  test('writes a long text in pieces of the size asked that join to the text', () => {
    // GIVEN a text of 10 pieces and a bit
    const text = 'x'.repeat(1005);

    // WHEN it is written in pieces of 100
    const pieces = piecesOf(text, 100);

    // THEN there are 11 pieces, 10 of 100 and one of 5, and together they are the text
    expect(pieces.map((p) => p.length)).toEqual([100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 5]);
    expect(pieces.join('')).toBe(text);
  });

  test.each([1, 2, 3, 4, 7])('never splits a surrogate pair (pieces of %i)', (size) => {
    // GIVEN a text of characters outside the Basic Multilingual Plane at every offset
    const text = `a😀b😀😀c${'😀'.repeat(9)}d`;

    // WHEN it is written
    const pieces = piecesOf(text, size);

    // THEN each piece is whole UTF-16 (encodes to the same bytes as that part of the text) and together they are the text
    expect(pieces.join('')).toBe(text);
    expect(Buffer.concat(pieces.map((p) => Buffer.from(p, 'utf8'))).toString('utf8')).toBe(text);
    for (const piece of pieces) {
      expect(piece.length).toBeGreaterThan(0);
      expect(piece).not.toMatch(/[\uD800-\uDBFF]$/);
    }
  });
});
