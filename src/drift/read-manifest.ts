import { Json } from './json';
import { ErrorCode, failure } from '../core/errors';
import { parseManifests } from '../core/parse-manifests';

/**
 * The one Kubernetes object that `content` (text, or a file's bytes) holds, read as the audit reads a file:
 * templates, binary content, invalid UTF-8, syntax errors, duplicate keys, alias bombs and excessive nesting
 * are refused with the reason, and YAML tags never run code.
 *
 * @param what names the input in errors, e.g. `desired deployment.yaml`
 * @throws [SAFE-102] when `content` is not exactly one readable Kubernetes object
 */
export function readOneManifest(what: string, content: string | Uint8Array): Json {
  const parsed = parseManifests(what, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
  if (parsed.problem !== undefined) {
    throw failure(ErrorCode.UNREADABLE_INPUT, `${what}: ${parsed.problem}`);
  }
  if (parsed.objects.length !== 1 || parsed.skipped > 0) {
    const found = parsed.objects.length + parsed.skipped === 0 ? 'nothing'
      : `${parsed.objects.length} Kubernetes object(s) and ${parsed.skipped} other document(s)`;
    throw failure(ErrorCode.UNREADABLE_INPUT, `${what}: expected exactly one Kubernetes object (with apiVersion and kind), found ${found}. `
      + 'Fix: pass one manifest per file, e.g. kubectl get deployment web -o yaml > live.yaml.');
  }
  return parsed.objects[0].manifest as Json;
}
