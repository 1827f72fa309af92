const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** RFC 1123 label, as Kubernetes checks namespace and most object names: at most 63 characters. */
export function isDns1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

/** RFC 1123 subdomain, as Kubernetes checks most object names: at most 253 characters. */
export function isDns1123Subdomain(value: string): boolean {
  return value.length <= 253 && DNS1123_SUBDOMAIN.test(value);
}

/** Turns any text into a suggestion that passes {@link isDns1123Label}. */
export function suggestDns1123Label(value: string): string {
  const cleaned = value.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  return cleaned.length > 0 ? cleaned : 'my-app';
}

/** Glob characters Argo CD's group and kind matching understands. */
export function hasGlob(value: string): boolean {
  return /[*?[\]{}]/.test(value);
}

/** A Git repository URL as Argo CD reads one: `https://`, `ssh://`, `git://`, or `user@host:path`. */
export function isGitRepoUrl(url: unknown): url is string {
  return typeof url === 'string' && (/^(https?|ssh|git):\/\/\S+$/.test(url) || /^[\w.-]+@[\w.-]+:\S+$/.test(url));
}

const QUALIFIED_NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * A label or annotation key as Kubernetes checks it: an optional DNS-1123 subdomain prefix and `/`, then a
 * name of at most 63 letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit.
 */
export function isQualifiedName(value: string): boolean {
  const slash = value.lastIndexOf('/');
  const prefix = slash < 0 ? undefined : value.slice(0, slash);
  const name = slash < 0 ? value : value.slice(slash + 1);
  return (prefix === undefined || isDns1123Subdomain(prefix)) && name.length <= 63 && QUALIFIED_NAME_PART.test(name);
}

/** A label value as Kubernetes checks it: empty, or at most 63 letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit. */
export function isLabelValue(value: string): boolean {
  return value === '' || (value.length <= 63 && QUALIFIED_NAME_PART.test(value));
}
