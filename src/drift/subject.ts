import { parse } from 'yaml';
import { isMap } from './json';

/** `Kind namespace/name` of a manifest given as text, for report headings. */
export function describeManifestText(text: string): string {
  let obj: unknown;
  try {
    obj = parse(text);
  } catch {
    return 'resource';
  }
  if (!isMap(obj)) {
    return 'resource';
  }
  const metadata = isMap(obj.metadata) ? obj.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : String(metadata.generateName ?? '?');
  return `${String(obj.kind ?? '?')} ${typeof metadata.namespace === 'string' ? `${metadata.namespace}/` : ''}${name}`;
}
