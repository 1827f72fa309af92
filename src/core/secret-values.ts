/**
 * Telling a secret value from configuration in free-form data (Helm values): by the key that holds it and by what
 * it looks like. Only names are ever reported, never the values.
 */

/** Key names that hold credentials: `password`, `adminPassword`, `apiToken`, `client_secret`, `privateKey`... */
const SECRET_KEY = /(passw(or)?d|passwd|secret|token|api[-_]?key|private[-_]?key|access[-_]?key|secret[-_]?key|credentials?)$/i;

/**
 * Keys that name or point to a secret rather than hold one (`existingSecret`, `secretName`, `tokenSecretRef`,
 * `passwordFile`, `createSecret`): their values are names, paths or switches. A bare `secret` is most often a name too.
 */
const REFERENCE_KEY = /(^existing|^create|^use|name$|ref$|file$|path$|key(ref|name)$|enabled$|^secrets?$|^(tls|ca|cert|certificate|image-?pull|pull|docker|registry)[-_]?secrets?$)/i;

/** A key under which every value is a name in another Secret (`existingSecretMappings`, `existingSecretKeys`). */
const REFERENCE_TREE = /^existing/i;

/** A key that names a Secret (`secretName`, `existingSecret`): beside it, `secretKey` names a key of that Secret. */
const NAMES_A_SECRET = /^(secretName|existingSecret|secretRef)$/i;
/** A word's Secret named or referenced (`passwordSecretName`, `tokenSecretRef`), which names a Secret as NAMES_A_SECRET keys do. */
const NAMES_A_WORDS_SECRET = /^[a-z][A-Za-z0-9]*Secret(Name|Ref)$/;
/**
 * The key of a named Secret's key: `secretKey`, `passwordSecretKey` beside a key that names a Secret
 * (`passwordSecret: db-app`), not an access key's secret.
 */
const KEY_OF_NAMED_SECRET = /^(secret[-_]?key|[a-z][A-Za-z0-9]*SecretKey)$/i;

/**
 * Whether a key and its value name a Secret: `secretName`, `existingSecret`, `secretRef`, a word's `...SecretName` or
 * `...SecretRef`, or a word and `Secret` that holds an object's name (`passwordSecret: obico-db-app`).
 */
function namesASecret(key: string, value: unknown): boolean {
  return typeof value === 'string' && (NAMES_A_SECRET.test(key) || NAMES_A_WORDS_SECRET.test(key) || (NAMING_KEY.test(key) && isObjectName(value.trim())));
}

/** A private key in PEM form, whatever key holds it. */
const PRIVATE_KEY_PEM = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * Values filled in elsewhere: a template, an environment variable (`$VAR`, `${VAR}`, NATS's `<< $VAR >>`), a secret
 * manager's reference (argocd-vault-plugin, vals), where argocd-image-updater reads credentials from
 * (`pullsecret:<namespace>/<name>`, `secret:...`, `env:<VAR>`, `ext:<script>`), or Grafana's expansion of a file, an
 * environment variable or a Vault secret as it reads its settings (`$__file{<path>}`, `$__env{<VAR>}`, `$__vault{...}`).
 */
const PLACEHOLDER = /^\s*(\{\{.*\}\}|\$__(?:file|env|vault)\{[^{}]+\}|\$\{.*\}|\$[A-Z_][A-Z0-9_]*|<<\s*\$[A-Z_][A-Z0-9_]*\s*>>|<path:.*>|<[a-z-]+>|ref\+\S+|vault:\S+|aws-sm:\S+|gcp-sm:\S+|secretref\+\S+|(pull)?secret:\S+|env:[A-Z_][A-Z0-9_]*|ext:\S+)\s*$/i;

/**
 * Argo CD's reference to a key of argocd-secret (`$oidc.clientSecret`) or of another Secret labelled part-of argocd
 * (`$<secret>:<key>`), which its settings resolve in argocd-cm's dex.config and oidc.config and in argocd-secret's
 * webhook keys.
 */
const ARGOCD_SECRET_REFERENCE = /^\s*\$(?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?:)?[-.\w]+\s*$/;

/** Whether a value is an Argo CD reference to a key of one of its Secrets (`$<key>`, `$<secret>:<key>`), not a value. */
export function isArgoCdSecretReference(value: string): boolean {
  return ARGOCD_SECRET_REFERENCE.test(value);
}

/** A value written in YAML that is no string: a boolean, an empty or flow collection, or an alias to another node. */
const NOT_A_STRING = /^(true|false|yes|no|on|off|\{.*\}|\[.*\]|\*[\w.-]+)$/i;

/** Whether the key names a value that is itself a credential. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !REFERENCE_KEY.test(key);
}

/**
 * Whether the value under a secret key is a secret: a literal, and not the key's own name (a mapping of environment
 * variables to the keys of an existing Secret, `AWS_SECRET_ACCESS_KEY: AWS_SECRET_ACCESS_KEY`).
 */
export function isSecretValue(key: string, value: unknown): boolean {
  return isSecretKey(key) && isLiteralValue(value) && value !== key && !(typeof value === 'string' && namesAnObject(key, value));
}

/**
 * An environment variable that names a Kubernetes Secret by saying so (`TS_KUBE_SECRET`, `K8S_SECRET`): upper-case words,
 * the last two `KUBE`, `K8S` or `KUBERNETES` and `SECRET`. Tailscale keeps its state in the Secret `TS_KUBE_SECRET` names.
 */
const KUBE_SECRET_KEY = /^(?:[A-Z][A-Z0-9]*_)*(?:KUBE|K8S|KUBERNETES)_SECRET$/;

/**
 * Whether a secret key holds an object's name: a camelCase word and `Secret` holding a name of more than one word, or an
 * environment variable that names a Kubernetes Secret holding a DNS-1123 subdomain.
 */
function namesAnObject(key: string, value: string): boolean {
  return (NAMING_KEY.test(key) && isObjectName(value)) || (KUBE_SECRET_KEY.test(key) && isDnsSubdomain(value));
}

/**
 * A key of a word and `Secret` (`connectionSecret`, `registryPushSecret`), which in charts most often holds the name of
 * a Secret, unless the word is one whose secret is a value (`clientSecret`, `cookieSecret`, `webhookSecret`...).
 */
const NAMING_KEY = /^(?!(?:client|shared|webhook|cookie|jwt|hmac|signing|session|encryption|oauth2?|api|app|master|root)Secret$)[a-z][A-Za-z0-9]*[a-z0-9]Secret$/;

/** A Kubernetes object name of more than one word (`minio-homerun`, `hf-token.v2`): a Secret's name, not a secret. */
function isObjectName(value: string): boolean {
  return /[-.]/.test(value) && isDnsSubdomain(value);
}

/** A DNS-1123 subdomain, as a Secret's name must be (`tailscale-state`, `state`). */
function isDnsSubdomain(value: string): boolean {
  return value.length <= 253 && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(value);
}

/**
 * Whether a value held by a secret key is a real value in plain text: not empty, not a placeholder filled in at
 * render time, not ciphertext.
 */
export function isLiteralValue(value: unknown): boolean {
  if (typeof value === 'number') {
    return true;
  }
  return typeof value === 'string' && value.trim() !== '' && !PLACEHOLDER.test(value) && !isArgoCdSecretReference(value) && !isEncryptedValue(value)
    && !READS_ENVIRONMENT.test(value.trim());
}

/**
 * Code that reads the value from the environment where it runs, as a Python or JavaScript config in a block scalar does
 * (`os.environ.get("KEYCLOAK_SECRET"),`, `os.getenv('X')`, `process.env.TOKEN`, `System.getenv("X")`): no value is in Git.
 */
const READS_ENVIRONMENT = /^(?:os\.environ(?:\.get\s*\(|\s*\[)|os\.getenv\s*\(|getenv\s*\(|System\.getenv\s*\(|process\.env(?:\.[A-Za-z_$]|\s*\[)|ENV\s*\[|ENV\.fetch\s*\()/;

/**
 * A value SOPS encrypted, as it writes each value of a file (helm-secrets, KSOPS, a SOPS-encrypted Secret):
 * `ENC[AES256_GCM,data:...,iv:...,tag:...,type:str]`, which only the holder of the key can read.
 */
const SOPS_VALUE = /^\s*ENC\[AES256_GCM,data:[A-Za-z0-9+/=]*,iv:[A-Za-z0-9+/=]+,tag:[A-Za-z0-9+/=]+,type:[a-z]+\]\s*$/;

/**
 * A value kubeseal encrypted (a SealedSecret's encryptedData, often handed to a chart through its values): base64 of
 * the RSA-encrypted session key's length (512 bytes under the controller's default 4096-bit key, so it starts `Ag`),
 * that key and the AES-GCM ciphertext, some 700 characters at least.
 */
const SEALED_VALUE = /^\s*Ag[A-Za-z0-9+/]{600,}={0,2}\s*$/;

/** Whether a value is ciphertext that SOPS or kubeseal wrote: encrypted at rest, readable only with the key. */
export function isEncryptedValue(value: unknown): boolean {
  return typeof value === 'string' && (SOPS_VALUE.test(value) || SEALED_VALUE.test(value));
}

/** Whether a text holds a private key in PEM form. */
export function holdsPrivateKey(text: string): boolean {
  return PRIVATE_KEY_PEM.test(text);
}

/** Bounds for walking hostile data: how deep, and how many values. */
const MAX_DEPTH = 64;
const MAX_VALUES = 20_000;

/**
 * The dotted paths of the secret values in a tree of Helm values: a literal under a secret key, or a private key
 * in PEM form under any key. Own keys only; deeper or larger trees than any chart's values are cut off.
 */
export function secretPathsIn(tree: unknown): string[] {
  return secretKeyPathsIn(tree).map((keys) => keys.join('.'));
}

/** {@link secretPathsIn}, each path as its keys (a key may hold a dot). */
export function secretKeyPathsIn(tree: unknown): string[][] {
  const found: string[][] = [];
  let budget = MAX_VALUES;
  const walk = (value: unknown, path: string[], depth: number): void => {
    if (budget-- <= 0 || depth > MAX_DEPTH) {
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, [...path, String(i)], depth + 1));
      return;
    }
    if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      const namesSecret = keys.some((k) => namesASecret(k, (value as { [key: string]: unknown })[k]));
      for (const key of keys) {
        if (!REFERENCE_TREE.test(key) && !(namesSecret && KEY_OF_NAMED_SECRET.test(key))) {
          walk((value as { [key: string]: unknown })[key], [...path, key], depth + 1);
        }
      }
      return;
    }
    const key = path.length > 0 ? path[path.length - 1] : '';
    if (isSecretValue(key, value) || (typeof value === 'string' && holdsPrivateKey(value))) {
      found.push(path);
    }
  };
  walk(tree, [], 0);
  return found;
}

/**
 * The keys of the secret values in a Helm values text, read line by line (`key: value` on one line; a PEM block
 * under the key that opens it): enough to find a committed password without parsing YAML that may be templated.
 */
export function secretKeysInValuesText(text: string): string[] {
  if (text.length > MAX_REMEMBERED_CHARS) {
    return readSecretKeys(text);
  }
  let keys = VALUES_TEXT_KEYS.get(text);
  if (keys === undefined) {
    keys = readSecretKeys(text);
    // Forgotten all at once when full.
    if (VALUES_TEXT_KEYS.size >= MAX_REMEMBERED_TEXTS) {
      VALUES_TEXT_KEYS.clear();
    }
    VALUES_TEXT_KEYS.set(text, keys);
  }
  return [...keys];
}

/**
 * The secret keys of the value texts read last, by text: a repository's value file is read again for each of the
 * Applications that name it (one per cluster or environment), and reading it line by line costs more than looking it up.
 */
const VALUES_TEXT_KEYS = new Map<string, readonly string[]>();
const MAX_REMEMBERED_TEXTS = 256;
const MAX_REMEMBERED_CHARS = 100_000;

function readSecretKeys(text: string): string[] {
  // A set: a values text of 25,000 private-key lines named one key 25,000 times, each looked for among the others.
  const found = new Set<string>();
  let lastKey = '';
  // The keys that open the blocks the current line is in, by indentation: below an `existing...` key, values are names.
  const open: { indent: number; key: string }[] = [];
  // Whether the mapping a line is in names a Secret (by the blocks that hold it); `secretKey` found in one is judged at
  // the end, as a `secretName` may follow it.
  let mapping = { namesSecret: false };
  const mappingOf: { namesSecret: boolean }[] = [];
  const keyOfNamed: { key: string; mapping: { namesSecret: boolean } }[] = [];
  for (const line of text.slice(0, 1_000_000).split('\n')) {
    // (.*) then trim: a lazy `(.*?)\s*$` is quadratic on a line of spaces.
    const match = /^(\s*)(?:-\s+)?["']?([\w.-]+)["']?\s*:(.*)$/.exec(line);
    if (match) {
      const indent = match[1].length;
      while (open.length > 0 && open[open.length - 1].indent >= indent) {
        open.pop();
        mapping = mappingOf.pop() ?? { namesSecret: false };
      }
      lastKey = match[2];
      const written = match[3].trim();
      const value = written.replace(/^(["'])(.*)\1$/, '$2');
      mapping.namesSecret ||= written !== '' && !/^[|>]/.test(written) && namesASecret(lastKey, value);
      const named = open.some((o) => REFERENCE_TREE.test(o.key)) || REFERENCE_TREE.test(lastKey);
      if (!named && isSecretValue(lastKey, value) && value !== '|' && value !== '>' && !/^[|>][-+]?$/.test(value)
        && !/^(null|~|""|'')$/.test(value) && !NOT_A_STRING.test(written)) {
        if (KEY_OF_NAMED_SECRET.test(lastKey)) {
          keyOfNamed.push({ key: lastKey, mapping });
        } else {
          found.add(lastKey);
        }
      }
      open.push({ indent, key: lastKey });
      mappingOf.push(mapping);
      mapping = { namesSecret: false };
    }
    // A comment is no value: Helm never reads it.
    if (holdsPrivateKey(line) && !line.trimStart().startsWith('#')) {
      found.add(lastKey);
    }
  }
  for (const { key, mapping: of } of keyOfNamed) {
    if (!of.namesSecret) {
      found.add(key);
    }
  }
  return [...found];
}
