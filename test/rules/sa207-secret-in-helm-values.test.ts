import { expectFindings, findingsOf, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';
import { isSecretKey, secretKeysInValuesText, secretPathsIn } from '../../src/core/secret-values';
import { secretInHelmValues } from '../../src/rules/sa207-secret-in-helm-values';

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n';

function helmApp(helm: unknown): Manifest {
  return safeApplication({ spec: { source: { repoURL: 'https://charts.acme.internal', chart: 'db', targetRevision: '1.2.3', path: undefined, helm } } });
}

describe('SA207 secret-in-helm-values', () => {
  test('passes when the values name secrets, reference them, or leave them to render time', () => {
    // GIVEN
    const app = helmApp({
      parameters: [
        { name: 'auth.existingSecret', value: 'db-credentials' },
        { name: 'auth.password', value: '' },
        { name: 'replicaCount', value: '3' },
        { name: 'auth.passwordSecretRef', value: 'db' },
      ],
      values: 'auth:\n  existingSecret: db-credentials\n  password: <path:secret/data/db#password>\n  token: "{{ .Values.token }}"\nimage:\n  tag: 1.2.3\n',
      valuesObject: { auth: { secretName: 'db', adminPassword: '${ADMIN_PASSWORD}', createSecret: false }, tokenSecret: { name: 'x' } },
    });
    // WHEN
    const findings = findingsOf(secretInHelmValues, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on values that are no secret string: booleans, empty or flow collections, aliases, and references filled in elsewhere', () => {
    // GIVEN values text as charts write it: switches, empty maps, a Secret reference in a flow map, NATS and image-updater references
    const values = [
      'watchConfigSecret: false', 'configSecret: {}', 'tokens: []', 'token: {secretKeyRef: {name: nats, key: token}}', 'password: *sharedPassword',
      'auth:', '  password: "<< $NATS_AUTH_SERVICE_PASSWORD >>"', 'registries:', '  - credentials: pullsecret:argocd/ocir-secret',
      '  - credentials: env:REGISTRY_CREDENTIALS', '  - credentials: secret:argocd/registry#creds', '',
    ].join('\n');
    // WHEN / THEN nothing is a committed secret
    expect(secretKeysInValuesText(values)).toEqual([]);
    // while the same keys with literal strings, quoted booleans included, are
    expect(secretKeysInValuesText('configSecret: hunter2\npassword: "false"\ncredentials: user:hunter2\n').sort()).toEqual(['configSecret', 'credentials', 'password']);
  });

  test('reads a values text read before the same way, and what the caller does with the keys does not change them', () => {
    // GIVEN a value file that many Applications name, read once
    const text = 'db:\n  password: hunter2\n  user: app\n';
    const first = secretKeysInValuesText(text);
    // WHEN a caller changes what it got, and the text is read again
    first.push('user');
    first.sort();
    // THEN the second reading finds what the first did, and a large text, not remembered, is read the same way
    expect(secretKeysInValuesText(text)).toEqual(['password']);
    const large = `${'note: plain\n'.repeat(10_000)}token: s3cr3t-value\n`;
    expect(large.length).toBeGreaterThan(100_000);
    expect(secretKeysInValuesText(large)).toEqual(['token']);
    expect(secretKeysInValuesText(large)).toEqual(['token']);
  });

  test('passes on values SOPS encrypted (helm-secrets), in values text and valuesObject, and fails on the same key in plain text', () => {
    // GIVEN a value file as helm-secrets keeps it: keys in clear, each value SOPS ciphertext, and the sops block
    const encrypted = 'ENC[AES256_GCM,data:ZiH+c2VjcmV0,iv:AAECAwQFBgcICQoL,tag:DA0ODxAREhMUFRYXGBkaGw==,type:str]';
    const values = `openwebui:\n  oauth:\n    sessionSecret: ${encrypted}\n    clientSecret: "${encrypted}"\nsops:\n  age:\n    - recipient: age1qqq\n`;
    // WHEN / THEN no key is reported, in text or as an object
    expect(secretKeysInValuesText(values)).toEqual([]);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { auth: { password: encrypted } } }))).toEqual([]);
    // while plain text under the same keys, or a value that only starts like SOPS's, is a secret
    expect(secretKeysInValuesText('sessionSecret: hunter2\nclientSecret: ENC[hunter2]\n').sort()).toEqual(['clientSecret', 'sessionSecret']);
  });

  test('passes on values kubeseal encrypted (a SealedSecret\'s ciphertext handed to a chart), and fails on a short value that starts the same', () => {
    // GIVEN ciphertext as kubeseal writes it under the default 4096-bit key: 2 bytes of length, 512 of key, then the data
    const sealed = Buffer.concat([Buffer.from([0x02, 0x00]), Buffer.alloc(512 + 40, 7)]).toString('base64');
    expect(sealed.startsWith('Ag')).toBe(true);
    // WHEN / THEN it is not reported, in values text and valuesObject
    expect(secretKeysInValuesText(`baas:\n  password: ${sealed}\n`)).toEqual([]);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { baaspassword: sealed } }))).toEqual([]);
    // while a password that only starts with Ag is one
    expect(secretKeysInValuesText('password: Agh7sT0ngPassw0rd\n')).toEqual(['password']);
  });

  test('passes on names of Secrets and on mappings to the keys of an existing Secret, in values text and valuesObject', () => {
    // GIVEN a TLS Secret's name, and environment variables mapped to keys of an existing Secret
    const values = 'tlsSecret: chartmuseum-tls\nenv:\n  existingSecretMappings:\n    AWS_SECRET_ACCESS_KEY: aws_secret_access_key\n'
      + '    AZURE_STORAGE_ACCESS_KEY: AZURE_STORAGE_ACCESS_KEY\n  open:\n    STORAGE: amazon\n';
    const valuesObject = { env: { existingSecretMappings: { AWS_SECRET_ACCESS_KEY: 'key' } }, ingress: { tlsSecret: 'web-tls' } };
    const app = helmApp({ values, valuesObject, parameters: [{ name: 'env.AWS_SECRET_ACCESS_KEY', value: 'AWS_SECRET_ACCESS_KEY' }] });
    // WHEN / THEN
    expect(findingsOf(secretInHelmValues, [], app)).toEqual([]);
    // and a password beside the mapping, back at the mapping's level, is still found
    expect(secretKeysInValuesText(`${values}  password: hunter2\n`)).toEqual(['password']);
  });

  test('passes on a word and Secret that holds a Secret\'s name, and fails when it holds a value or the word is one of a value', () => {
    // GIVEN keys of a word and Secret holding object names, in values text and valuesObject
    const names = 'connectionSecret: minio-homerun\nregistryPushSecret: "oci-model-cache-operator-hf-token"\n';
    expect(secretKeysInValuesText(names)).toEqual([]);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { storage: { connectionSecret: 'minio-homerun' } } }))).toEqual([]);
    // WHEN the value is no object name, or the key's word is one whose secret is a value / THEN they are found
    expect(secretKeysInValuesText('connectionSecret: hunter2\nadminSecret: S3cr3t-Pass\nclientSecret: my-oidc-client\ncookieSecret: a-b\n').sort())
      .toEqual(['adminSecret', 'clientSecret', 'connectionSecret', 'cookieSecret']);
  });

  test('passes on an environment variable that names a Kubernetes Secret (TS_KUBE_SECRET), and fails on other _SECRET variables and on a value that is no name', () => {
    // GIVEN Tailscale's variable naming the Secret it keeps its state in, in values text, valuesObject and a parameter
    expect(secretKeysInValuesText('env:\n  TS_KUBE_SECRET: tailscale-router-state\n  K8S_SECRET: state\n')).toEqual([]);
    expect(findingsOf(secretInHelmValues, [], helmApp({
      valuesObject: { env: { TS_KUBE_SECRET: 'tailscale-state' } }, parameters: [{ name: 'env.TS_KUBE_SECRET', value: 'ts.state' }],
    }))).toEqual([]);
    // WHEN the variable does not say it names a Kubernetes Secret, or the value cannot be a Secret's name / THEN they are found
    expect(secretKeysInValuesText('JWT_SECRET: my-jwt-secret\nTS_AUTH_SECRET: tskey-abc\nTS_KUBE_SECRET: tskey_Auth_K3y\nKUBE_SECRET_TOKEN: abc\n').sort())
      .toEqual(['JWT_SECRET', 'KUBE_SECRET_TOKEN', 'TS_AUTH_SECRET', 'TS_KUBE_SECRET']);
  });

  test('passes on Grafana\'s expansion of a file, a variable or a Vault secret ($__file{...}), and fails on a literal around one', () => {
    // GIVEN a datasource password Grafana reads from a mounted Secret's file, and an admin password from the environment
    const values = 'grafana:\n  datasource:\n    password: $__file{/etc/secrets/postgres-password/password}\n  adminPassword: "$__env{GF_ADMIN_PASSWORD}"\n'
      + '  token: $__vault{kv:secret/grafana:token}\n';
    expect(secretKeysInValuesText(values)).toEqual([]);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { grafana: { datasource: { password: '$__file{/etc/secrets/pw}' } } } }))).toEqual([]);
    // WHEN the expansion is part of a literal, or names no provider Grafana has / THEN the keys are found
    expect(secretKeysInValuesText('password: hunter2$__file{/etc/pw}\ntoken: $__random{x}\napiKey: $__file{}\n').sort()).toEqual(['apiKey', 'password', 'token']);
  });

  test('passes on code in a block scalar that reads the secret from the environment, and fails on a literal in the same code', () => {
    // GIVEN Superset's Python OAuth config, as its chart takes it in configOverrides
    const values = 'configOverrides:\n  oauth: |\n    OAUTH_PROVIDERS = [\n      {\n        "remote_app": {\n'
      + '          "client_secret": os.environ.get("KEYCLOAK_SECRET"),\n          "api_key": os.getenv(\'API_KEY\'),\n'
      + '          "token": process.env.TOKEN,\n        },\n      }\n    ]\n';
    expect(secretKeysInValuesText(values)).toEqual([]);
    // WHEN the same key holds a literal / THEN it is found
    expect(secretKeysInValuesText(values.replace('os.environ.get("KEYCLOAK_SECRET")', '"hunter2"'))).toEqual(['client_secret']);
  });

  test('passes on a private key\'s marker in a comment of a values text, and fails on the key itself', () => {
    // GIVEN a commented-out key block after the last value, as a chart's values file documents one
    const values = 'a: 1\nimage:\n  tag: "1"\nb: 2\n# -----BEGIN OPENSSH PRIVATE KEY-----\n#   paste it in sshKey\n';
    expect(secretKeysInValuesText(values)).toEqual([]);
    // WHEN the block is a value / THEN its key is found
    expect(secretKeysInValuesText(`sshKey: |\n  ${PEM.split('\n').join('\n  ')}`)).toEqual(['sshKey']);
  });

  test('passes on secretKey beside a secretName, the key of the Secret named, and fails on it alone, an access key\'s secret', () => {
    // GIVEN secretKey beside secretName (after or before it) in values text and valuesObject
    expect(secretKeysInValuesText('auth:\n  secretName: trips-api-key\n  secretKey: credential\nother:\n  secretKey: k\n  existingSecret: s3\n')).toEqual([]);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { auth: { secretKey: 'credential', secretName: 'trips-api-key' } } }))).toEqual([]);
    // WHEN it stands alone, or its sibling names no Secret, or the Secret is named in another block / THEN it is found
    expect(secretKeysInValuesText('s3:\n  region: eu\n  secretKey: wJalrXUt\n')).toEqual(['secretKey']);
    expect(secretKeysInValuesText('a:\n  secretName: x\nb:\n  secretKey: wJalrXUt\n')).toEqual(['secretKey']);
    expect(secretKeysInValuesText('a:\n  secretName: |\n    x\n  secretKey: wJalrXUt\n')).toEqual(['secretKey']);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { s3: { region: 'eu', secretKey: 'wJalrXUt' } } }))).toHaveLength(1);
  });

  test('passes on a word\'s SecretKey beside the Secret it names (passwordSecret, passwordSecretName), and fails on it alone', () => {
    // GIVEN the key of a database password in the Secret a sibling names, in values text and valuesObject
    const database = { host: 'db-pooler', user: 'app', passwordSecret: 'app-db-credentials', passwordSecretKey: 'password' };
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { database } }))).toEqual([]);
    expect(secretKeysInValuesText('database:\n  passwordSecretKey: password\n  passwordSecretName: app-db\n')).toEqual([]);
    expect(secretKeysInValuesText('database:\n  passwordSecret: app-db-credentials\n  passwordSecretKey: password\n')).toEqual([]);
    // WHEN no sibling names a Secret (an access key's secret, or a word and Secret that holds a value) / THEN it is found
    expect(secretKeysInValuesText('s3:\n  awsSecretKey: wJalrXUt\n')).toEqual(['awsSecretKey']);
    expect(secretKeysInValuesText('s3:\n  passwordSecret: hunter2\n  passwordSecretKey: wJalrXUt\n').sort()).toEqual(['passwordSecret', 'passwordSecretKey']);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { s3: { region: 'eu', awsSecretKey: 'wJalrXUt' } } }))).toHaveLength(1);
  });

  test('passes on Argo CD\'s references to a key of its own Secrets ($key, $<secret>:<key>) in its dex or OIDC configuration', () => {
    // GIVEN argo-cd chart values whose dex.config takes the client secret from another Secret labelled part-of argocd
    const values = [
      'configs:', '  cm:', '    dex.config: |', '      connectors:', '        - type: oidc', '          config:',
      '            clientID: argocd', '            clientSecret: $argocd-dex-sso:dex.sso.clientSecret',
      '    oidc.config: |', '      clientSecret: $oidc.sso.clientSecret', '',
    ].join('\n');
    // WHEN / THEN no key is reported
    expect(secretKeysInValuesText(values)).toEqual([]);
    expect(findingsOf(secretInHelmValues, [], helmApp({ valuesObject: { webhook: { githubSecret: '$webhooks:github' } } }))).toEqual([]);
    // while a literal beside it, or a value with a dollar that is no reference (a bcrypt hash, a password), is found
    expect(secretKeysInValuesText('clientSecret: s3cr3t-value\nadminPassword: $2a$10$abcdefghijklmnopqrstuv\ntoken: pa$$word\n').sort())
      .toEqual(['adminPassword', 'clientSecret', 'token']);
  });

  test('fails on a password in a Helm parameter, naming the parameter and not the value', () => {
    // GIVEN
    const app = helmApp({ parameters: [{ name: 'replicaCount', value: '3' }, { name: 'postgresql.auth.postgresPassword', value: 'hunter2' }] });
    // WHEN
    const findings = findingsOf(secretInHelmValues, [], app);
    // THEN
    expectFindings(findings, app, ['SA207 /spec/source/helm/parameters/1/value']);
    expect(findings[0].value).toEqual(['postgresql.auth.postgresPassword']);
    expect(findings[0].message).not.toContain('hunter2');
  });

  test('fails once on values text setting 15,000 private keys: every key found, ten named in the message and the rest counted', () => {
    // GIVEN a values text whose every line holds a private key header under a key of its own
    const values = Array.from({ length: 15_000 }, (_, i) => `k${String(i).padStart(5, '0')}_password: -----BEGIN RSA PRIVATE KEY-----`).join('\n');
    const app = helmApp({ values });

    // WHEN
    const findings = findingsOf(secretInHelmValues, [], app);

    // THEN one finding holds all 15,000 keys, and its message names the first ten and counts the others
    expectFindings(findings, app, ['SA207 /spec/source/helm/values']);
    expect(findings[0].value).toHaveLength(15_000);
    expect(findings[0].message).toBe('the Helm values set "k00000_password", "k00001_password", "k00002_password", "k00003_password", '
      + '"k00004_password", "k00005_password", "k00006_password", "k00007_password", "k00008_password", "k00009_password" and 14990 more '
      + 'in plain text, in Git and in the Application Argo CD shows');
  });

  test('fails on a token and a private key in the values text, once for the text, naming the keys', () => {
    // GIVEN
    const app = helmApp({ values: `slack:\n  apiToken: xoxb-123456\ntls:\n  key: |\n    ${PEM.split('\n').join('\n    ')}` });
    // WHEN
    const findings = findingsOf(secretInHelmValues, [], app);
    // THEN
    expectFindings(findings, app, ['SA207 /spec/source/helm/values']);
    expect(findings[0].value).toEqual(['apiToken', 'key']);
  });

  test('fails on a clientSecret deep in valuesObject of the second source, with its dotted path', () => {
    // GIVEN
    const app = safeApplication({
      spec: {
        source: undefined,
        sources: [
          { repoURL: 'https://git.acme.internal/payments/values.git', targetRevision: 'main', ref: 'values' },
          { repoURL: 'https://charts.acme.internal', chart: 'sso', targetRevision: '2.0.0', helm: { valuesObject: { oidc: { providers: [{ clientSecret: 's3cr3t' }] } } } },
        ],
      },
    });
    // WHEN
    const findings = findingsOf(secretInHelmValues, [], app);
    // THEN
    expectFindings(findings, app, ['SA207 /spec/sources/1/helm/valuesObject/oidc/providers/0/clientSecret']);
    expect(findings[0].value).toEqual(['oidc.providers.0.clientSecret']);
    // and two secrets are reported once, at the field that holds both
    const two = helmApp({ valuesObject: { auth: { password: 'a', token: 'b' }, image: { tag: '1.0' } } });
    expect(findingsOf(secretInHelmValues, [], two).map((f) => [f.path, f.value])).toEqual([['/spec/source/helm/valuesObject/auth', ['auth.password', 'auth.token']]]);
  });

  test('the detection reads key names as charts spell them, and stays bounded on hostile depth', () => {
    expect(['password', 'adminPassword', 'api_key', 'secretKey', 'client-secret', 'token', 'privateKey'].filter((k) => !isSecretKey(k))).toEqual([]);
    expect(['existingSecret', 'secretName', 'passwordFile', 'tokenSecretRef', 'secret', 'createSecret', 'keyName'].filter(isSecretKey)).toEqual([]);
    let deep: unknown = { password: 'x' };
    for (let i = 0; i < 10_000; i++) {
      deep = { nested: deep };
    }
    expect(secretPathsIn(deep)).toEqual([]);
    expect(secretKeysInValuesText('password: null\nsecret: db\n')).toEqual([]);
  });
});
