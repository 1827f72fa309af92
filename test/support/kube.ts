import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Service } from 'kubernetes-models/v1/Service';

/**
 * The kinds kubernetes-models 4.5.1 checks here, keyed `apiVersion/Kind`. Each model's validate() runs the
 * Kubernetes OpenAPI schema (types, enums, required fields). It does NOT reject unknown fields, so a
 * misspelt field passes: these checks catch wrong types and missing required fields, not typos.
 */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'v1/Service': Service,
};

/**
 * The Kubernetes schema errors of a manifest, one line each; empty when it is valid.
 *
 * A hook Job rendered with `metadata.generateName` and no `metadata.name` is validated as it is: the
 * ObjectMeta schema makes neither field required (checked against 4.5.1), so no stand-in name is needed.
 *
 * @throws when the manifest is of a kind this helper does not know, so a test never passes by skipping
 */
export function kubeErrors(manifest: any): string[] {
  const key = `${manifest?.apiVersion}/${manifest?.kind}`;
  const Model = MODELS[key];
  if (!Model) {
    throw new Error(`kubeErrors: no schema for ${key}; known: ${Object.keys(MODELS).join(', ')}`);
  }
  try {
    // The model copies the data (dropping undefined values) and validates its copy; the manifest is not changed.
    new Model(manifest).validate();
    return [];
  } catch (e: any) {
    if (!Array.isArray(e?.errors)) {
      throw e;
    }
    return e.errors.map((err: any) => `${err.instancePath || '/'} ${err.message ?? err.keyword}${err.params ? ` ${JSON.stringify(err.params)}` : ''}`);
  }
}
