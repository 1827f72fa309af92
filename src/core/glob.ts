import { hasGlob } from './names';

/**
 * Whether a glob matches a value, the way Argo CD matches ignoreDifferences group and kind:
 * `*` any run of characters, `?` one character, `[...]` one of a set; everything else literally.
 */
export function globMatches(pattern: string, value: string): boolean {
  if (!hasGlob(pattern)) {
    return pattern === value;
  }
  let regex = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      regex += '.*';
    } else if (c === '?') {
      regex += '.';
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end === -1) {
        regex += '\\[';
      } else {
        regex += `[${pattern.slice(i + 1, end).replace(/\\/g, '\\\\').replace(/^!/, '^')}]`;
        i = end;
      }
    } else {
      regex += c.replace(/[.+^$(){}|\\\]]/g, '\\$&');
    }
  }
  try {
    return new RegExp(`^${regex}$`).test(value);
  } catch {
    return false;
  }
}
