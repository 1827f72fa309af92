import Ajv, { ValidateFunction } from 'ajv';

/**
 * JSON schemas of the External Secrets Operator's `external-secrets.io/v1` objects, hand-written from ESO's
 * v1 API reference, holding only the fields this library renders. Every object schema has
 * `additionalProperties: false`, so a misspelt or unsupported field fails (the CRDs themselves would prune it
 * silently, and Argo CD would then show a permanent diff).
 *
 * @see https://external-secrets.io/latest/api/spec/ (API reference: ExternalSecretSpec, SecretStoreRef,
 *   ExternalSecretTarget, ExternalSecretData, ExternalSecretDataRemoteRef, SecretStoreSpec, AWSProvider,
 *   VaultProvider, GCPSMProvider, ServiceAccountSelector)
 * @see https://external-secrets.io/latest/api/externalsecret/
 * @see https://external-secrets.io/latest/api/secretstore/
 */

/** DNS-1123 subdomain, as ESO's CRD checks names (`name`, `target.name`, `secretStoreRef.name`). */
const SUBDOMAIN = { type: 'string', minLength: 1, maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$' };

const METADATA = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: SUBDOMAIN,
    namespace: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** ServiceAccountSelector: `name` required; namespace is ignored by a namespaced SecretStore, so it is not rendered. */
const SERVICE_ACCOUNT_REF = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: SUBDOMAIN },
};

/** ExternalSecret (v1): spec.secretStoreRef, refreshInterval, target, data[].remoteRef. */
export const EXTERNAL_SECRET_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', const: 'external-secrets.io/v1' },
    kind: { type: 'string', const: 'ExternalSecret' },
    metadata: METADATA,
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['secretStoreRef', 'refreshInterval', 'target', 'data'],
      properties: {
        secretStoreRef: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'kind'],
          properties: {
            name: SUBDOMAIN,
            kind: { type: 'string', enum: ['SecretStore', 'ClusterSecretStore'] },
          },
        },
        // A Go duration (metav1.Duration), e.g. "1h", "2h30m", "10s".
        refreshInterval: { type: 'string', pattern: '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$' },
        target: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'creationPolicy', 'deletionPolicy'],
          properties: {
            name: SUBDOMAIN,
            creationPolicy: { type: 'string', enum: ['Owner', 'Orphan', 'Merge', 'None'] },
            deletionPolicy: { type: 'string', enum: ['Delete', 'Merge', 'Retain'] },
          },
        },
        data: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['secretKey', 'remoteRef'],
            properties: {
              secretKey: { type: 'string', minLength: 1, maxLength: 253, pattern: '^[-._a-zA-Z0-9]+$' },
              remoteRef: {
                type: 'object',
                additionalProperties: false,
                required: ['key'],
                properties: {
                  key: { type: 'string', minLength: 1 },
                  property: { type: 'string', minLength: 1 },
                  conversionStrategy: { type: 'string', enum: ['Default', 'Unicode'] },
                  decodingStrategy: { type: 'string', enum: ['Auto', 'Base64', 'Base64URL', 'None'] },
                  metadataPolicy: { type: 'string', enum: ['None', 'Fetch'] },
                },
              },
            },
          },
        },
      },
    },
  },
};

/** SecretStore (v1) with exactly one of the providers this library renders. */
export const SECRET_STORE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', const: 'external-secrets.io/v1' },
    kind: { type: 'string', const: 'SecretStore' },
    metadata: METADATA,
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['provider'],
      properties: {
        provider: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          maxProperties: 1,
          properties: {
            aws: {
              type: 'object',
              additionalProperties: false,
              required: ['service', 'region'],
              properties: {
                service: { type: 'string', enum: ['SecretsManager', 'ParameterStore'] },
                region: { type: 'string', minLength: 1 },
                role: { type: 'string', minLength: 1 },
                auth: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    jwt: {
                      type: 'object',
                      additionalProperties: false,
                      properties: { serviceAccountRef: SERVICE_ACCOUNT_REF },
                    },
                  },
                },
              },
            },
            vault: {
              type: 'object',
              additionalProperties: false,
              required: ['server'],
              properties: {
                server: { type: 'string', minLength: 1 },
                path: { type: 'string', minLength: 1 },
                version: { type: 'string', enum: ['v1', 'v2'] },
                auth: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    kubernetes: {
                      type: 'object',
                      additionalProperties: false,
                      required: ['mountPath', 'role'],
                      properties: {
                        mountPath: { type: 'string', minLength: 1 },
                        role: { type: 'string', minLength: 1 },
                        serviceAccountRef: SERVICE_ACCOUNT_REF,
                      },
                    },
                  },
                },
              },
            },
            gcpsm: {
              type: 'object',
              additionalProperties: false,
              properties: {
                projectID: { type: 'string', minLength: 1 },
                auth: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    workloadIdentity: {
                      type: 'object',
                      additionalProperties: false,
                      required: ['serviceAccountRef'],
                      properties: {
                        serviceAccountRef: SERVICE_ACCOUNT_REF,
                        clusterLocation: { type: 'string', minLength: 1 },
                        clusterName: { type: 'string', minLength: 1 },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const ajv = new Ajv({ strict: true, allErrors: true });
const validators: Record<string, ValidateFunction> = {
  ExternalSecret: ajv.compile(EXTERNAL_SECRET_SCHEMA),
  SecretStore: ajv.compile(SECRET_STORE_SCHEMA),
};

/**
 * The schema errors of an ESO object (ExternalSecret or SecretStore), one line each; empty when it is valid.
 *
 * @throws for any other kind, so a test never passes by skipping
 */
export function esoErrors(manifest: any): string[] {
  const validate = validators[manifest?.kind];
  if (!validate) {
    throw new Error(`esoErrors: no schema for kind ${manifest?.kind}; known: ${Object.keys(validators).join(', ')}`);
  }
  if (validate(manifest)) {
    return [];
  }
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params
    ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : ''}`);
}
