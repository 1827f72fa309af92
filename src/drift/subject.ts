import { isMap, Json } from './json';

/** `Kind namespace/name` of a manifest (`generateName` when it has no name), for report headings. */
export function describeManifest(manifest: Json): string {
  const obj = isMap(manifest) ? manifest : {};
  const metadata = isMap(obj.metadata) ? obj.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : String(metadata.generateName ?? '?');
  return `${String(obj.kind ?? '?')} ${typeof metadata.namespace === 'string' ? `${metadata.namespace}/` : ''}${name}`;
}
