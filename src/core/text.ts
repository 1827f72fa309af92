/** `text` without any run of `char` at its end, in linear time (a regex such as `/\/+$/` is quadratic on `/` runs that do not end the text). */
export function stripTrailing(text: string, char: string): string {
  const code = char.charCodeAt(0);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === code) {
    end--;
  }
  return text.slice(0, end);
}
