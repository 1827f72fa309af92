import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';

/**
 * The RBAC kinds kubernetes-models 4.5.1 checks here, keyed `apiVersion/Kind`, kept apart from kube.ts's
 * workload kinds. Like there, validate() runs the Kubernetes OpenAPI schema (types, required fields such
 * as a rule's `verbs`, a RoleBinding's `roleRef` and a subject's `kind` and `name`) and does NOT reject
 * unknown fields.
 */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
};

/**
 * The Kubernetes schema errors of a Role or RoleBinding, one line each; empty when it is valid.
 *
 * @throws when the manifest is of another kind, so a test never passes by skipping
 */
export function rbacErrors(manifest: any): string[] {
  const key = `${manifest?.apiVersion}/${manifest?.kind}`;
  const Model = MODELS[key];
  if (!Model) {
    throw new Error(`rbacErrors: no schema for ${key}; known: ${Object.keys(MODELS).join(', ')}`);
  }
  try {
    new Model(manifest).validate();
    return [];
  } catch (e: any) {
    if (!Array.isArray(e?.errors)) {
      throw e;
    }
    return e.errors.map((err: any) => `${err.instancePath || '/'} ${err.message ?? err.keyword}${err.params ? ` ${JSON.stringify(err.params)}` : ''}`);
  }
}
