/** `text` without any run of `char` at its end, in linear time (a regex such as `/\/+$/` is quadratic on `/` runs that do not end the text). */
export function stripTrailing(text: string, char: string): string {
  const code = char.charCodeAt(0);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === code) {
    end--;
  }
  return text.slice(0, end);
}

/**
 * The candidate `wanted` (lower case) is closest to, ignoring case: one equal to it, else the nearest fewer than
 * `limit` edits away (the first of equals); undefined when none is. For did-you-mean hints.
 */
export function closestIgnoringCase(wanted: string, candidates: readonly string[], limit: number): string | undefined {
  const exact = candidates.find((c) => c.toLowerCase() === wanted);
  if (exact !== undefined) {
    return exact;
  }
  let best: string | undefined;
  let bestDistance = limit;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, for did-you-mean hints; callers bound the texts' length. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The same text, held on its own. A JavaScript engine may keep a substring as a view of the string it was cut from, and
 * a string built from parts as those parts: a finding's message that quotes a value read from a file would otherwise keep
 * the whole file's text alive, as long as the finding.
 */
export function detached(text: string): string {
  // Joining makes one string; cutting the joined one copies it whole, and keeps nothing of the parts.
  return ` ${text}`.slice(1);
}
