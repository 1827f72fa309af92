import { readFileSync } from 'fs';
import { join } from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/** The Argo CD CRDs kept in this repository, one folder per release (schemas/README.md). */
export const CRD_ROOT = join(__dirname, '..', '..', 'schemas', 'argo-cd');

export const CRD_RELEASES: Record<string, string> = {
  '2.14': 'v2.14.21',
  '3.0': 'v3.0.23',
  '3.1': 'v3.1.16',
  '3.2': 'v3.2.12',
  '3.3': 'v3.3.14',
  '3.4': 'v3.4.7',
  '3.5': 'v3.5.1',
};

/**
 * Adds `additionalProperties: false` wherever a schema lists properties and does not preserve unknown
 * fields, so that a misspelt or unsupported field fails validation (the CRDs themselves allow them).
 */
export function tighten(schema: any): any {
  if (Array.isArray(schema)) {
    return schema.map(tighten);
  }
  if (schema === null || typeof schema !== 'object') {
    return schema;
  }
  const out: any = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === 'properties'
      ? Object.fromEntries(Object.entries(v as object).map(([pk, pv]) => [pk, tighten(pv)]))
      : tighten(v);
  }
  if (out.properties && out['x-kubernetes-preserve-unknown-fields'] !== true && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

const cache = new Map<string, ValidateFunction>();

/**
 * A validator for one kind (`application`, `appproject`, `applicationset`) of one Argo CD release,
 * against the CRD's schema tightened to reject unknown fields.
 */
export function crdValidator(kind: string, release: string): ValidateFunction {
  const key = `${kind}@${release}`;
  let validate = cache.get(key);
  if (!validate) {
    const crd = parse(readFileSync(join(CRD_ROOT, CRD_RELEASES[release], `${kind}-crd.yaml`), 'utf8'));
    const schema = tighten(crd.spec.versions.find((v: any) => v.served).schema.openAPIV3Schema);
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    validate = ajv.compile(schema);
    cache.set(key, validate);
  }
  return validate;
}

/** The schema errors of a manifest, as readable lines; empty when it is valid. */
export function crdErrors(kind: string, release: string, manifest: unknown): string[] {
  const validate = crdValidator(kind, release);
  if (validate(manifest)) {
    return [];
  }
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${(e.params as any).additionalProperty})` : ''}`);
}
