import { ApiObject } from 'cdk8s';
import { renderedCheckout } from './checkout';
import {
  described, expectFindings, findingsOf, manifest, safeApplication,
} from './support';
import { SafeApplication } from '../../src';
import { Manifest, stringAt } from '../../src/core/manifest';
import { suppressionKey } from '../../src/core/suppressions';
import { runRules, unsuppressed } from '../../src/rules/engine';
import { secretDataInGit } from '../../src/rules/sa203-secret-data-in-git';
import { Severity } from '../../src/rules/severity';
import { newApp } from '../support/app';

/** Values that must never appear in a finding. */
const PASSWORD_B64 = 'aHVudGVyMg==';
const PASSWORD = 'hunter2';
const TOKEN = 's3cr3t-t0ken';

/** A core v1 Secret in the checkout namespace, with `fields` (data, stringData, type...) merged in. */
function secret(name: string, fields: { [key: string]: unknown } = {}): Manifest {
  return manifest('v1', 'Secret', name, fields);
}

/** Asserts that nothing in the findings (message, value, path) holds any of the values. */
function expectNoValues(findings: readonly { message: string; value?: unknown; path: string }[], values: string[]): void {
  const text = JSON.stringify(findings.map((f) => ({ message: f.message, value: f.value, path: f.path })));
  for (const v of values) {
    expect(text).not.toContain(v);
  }
}

describe('SA203 secret-data-in-git', () => {
  test('is an error named secret-data-in-git', () => {
    expect(secretDataInGit.id).toBe('SA203');
    expect(secretDataInGit.name).toBe('secret-data-in-git');
    expect(secretDataInGit.severity).toBe(Severity.ERROR);
  });

  test('passes when a Secret has no data and no stringData', () => {
    // GIVEN a placeholder a controller fills
    const resources = [secret('checkout-tls', { type: 'kubernetes.io/tls' })];
    // WHEN
    const findings = findingsOf(secretDataInGit, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when data and stringData are empty objects', () => {
    const resources = [secret('placeholder', { data: {}, stringData: {} })];
    expect(findingsOf(secretDataInGit, resources, safeApplication())).toEqual([]);
  });

  test('passes when a ConfigMap has data, and when a Secret of another API group has data', () => {
    // GIVEN data that is not in a core v1 Secret
    const resources = [
      manifest('v1', 'ConfigMap', 'settings', { data: { LOG_LEVEL: 'info' } }),
      manifest('acme.internal/v1', 'Secret', 'not-core', { data: { token: TOKEN } }),
      manifest('bitnami.com/v1alpha1', 'SealedSecret', 'sealed', { spec: { encryptedData: { password: 'AgBy3i4OJSWK+PiTySYZZA==' } } }),
    ];
    // WHEN / THEN
    expect(findingsOf(secretDataInGit, resources, safeApplication())).toEqual([]);
  });

  test('passes on an ExternalSecret, which keeps the value out of Git', () => {
    const es = manifest('external-secrets.io/v1', 'ExternalSecret', 'checkout-db', {
      spec: { secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' }, data: [{ secretKey: 'password', remoteRef: { key: 'checkout/db' } }] },
    });
    expect(findingsOf(secretDataInGit, [es], safeApplication())).toEqual([]);
  });

  test('fails when a Secret has data, naming the key and not the value', () => {
    // GIVEN
    const db = secret('checkout-db', { data: { password: PASSWORD_B64 } });
    // WHEN
    const findings = findingsOf(secretDataInGit, [db], safeApplication());
    // THEN
    expectFindings(findings, db, ['SA203 /data']);
    expect(findings[0].message).toBe('Secret checkout/checkout-db declares key "password" in data; its value is committed to Git');
    expect(findings[0].value).toEqual(['password']);
    expectNoValues(findings, [PASSWORD_B64, PASSWORD]);
  });

  test('fails when a Secret has stringData, naming every key sorted, and no value', () => {
    // GIVEN
    const api = secret('checkout-api', { stringData: { 'token': TOKEN, 'api.url': 'https://api.acme.internal', 'PASSWORD': PASSWORD } });
    // WHEN
    const findings = findingsOf(secretDataInGit, [api], safeApplication());
    // THEN
    expectFindings(findings, api, ['SA203 /stringData']);
    expect(findings[0].message).toContain('declares keys "PASSWORD", "api.url", "token" in stringData; their values are committed to Git');
    expect(findings[0].value).toEqual(['PASSWORD', 'api.url', 'token']);
    expectNoValues(findings, [TOKEN, PASSWORD, 'https://api.acme.internal']);
  });

  test('fails twice when a Secret has both data and stringData', () => {
    const both = secret('both', { data: { password: PASSWORD_B64 }, stringData: { token: TOKEN } });
    const findings = findingsOf(secretDataInGit, [both], safeApplication());
    expectFindings(findings, both, ['SA203 /data', 'SA203 /stringData']);
    expectNoValues(findings, [PASSWORD_B64, PASSWORD, TOKEN]);
  });

  test('passes on keys that hold only PEM certificates, and still names a key with a private key beside them', () => {
    // GIVEN a CA bundle (stringData), a certificate in data, and a private key
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';
    const key = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n';
    const obj = secret('tls', { stringData: { 'ca.crt': pem + pem }, data: { 'tls.crt': Buffer.from(pem).toString('base64'), 'tls.key': Buffer.from(key).toString('base64') } });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the private key is named
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/data', ['tls.key']]]);
  });

  test('passes on a key that holds only an absolute file path, where a token is read from, and names a token beside it', () => {
    // GIVEN the service account token's path (base64 in data, and in stringData) and a real token
    const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount/token';
    const obj = secret('gateway', { stringData: { file: tokenPath }, data: { token: Buffer.from(tokenPath).toString('base64'), bearer: Buffer.from('eyJhbGciOi.x/y').toString('base64') } });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the real token is named
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/data', ['bearer']]]);
  });

  test('passes on a config whose credentials are all read from files, and names configs that hold one in plain text', () => {
    // GIVEN a cluster config (YAML in stringData, JSON base64 in data) whose token is a $file include or a path of the mounted token
    const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount/token';
    const yaml = [
      "type: 'config'", 'clusters:', '  - url: https://kubernetes.default.svc', '    name: local', "    authProvider: 'serviceAccount'",
      '    skipTLSVerify: true', '    serviceAccountToken:', `      $file: ${tokenPath}`, '    caData:', '      $file: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt', '',
    ].join('\n');
    const json = JSON.stringify({ clusters: [{ name: 'local', serviceAccountToken: tokenPath, password: { $env: 'CLUSTER_PASSWORD' } }] });
    // and configs that hold a credential: a literal token beside a file include, key data, a password in a URL
    const literal = yaml.replace('    caData:', `    bearerToken: ${TOKEN}\n    caData:`);
    const keyData = `users:\n  - name: admin\n    client-key-data: ${PASSWORD_B64}\n    token:\n      $file: ${tokenPath}\n`;
    const url = `token:\n  $file: ${tokenPath}\ndatabase: postgres://app:${PASSWORD}@db:5432/app\n`;
    const obj = secret('k8s-config', {
      stringData: { 'k8s-config.yaml': yaml, 'literal.yaml': literal, 'key-data.yaml': keyData, 'url.yaml': url },
      data: { 'k8s-config.json': Buffer.from(json).toString('base64') },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN the configs that read every credential from a file are not named, the others are, and no value is shown
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/stringData', ['key-data.yaml', 'literal.yaml', 'url.yaml']]]);
    expectNoValues(findings, [TOKEN, PASSWORD, PASSWORD_B64]);
  });

  test('passes on a config that holds no credential key (a Loki config), and names configs whose credential hides under another key or in a URL', () => {
    // GIVEN a Loki config in stringData and, base64 in data, a JSON config with a password read from a file
    const loki = 'auth_enabled: false\nserver:\n  http_listen_port: 3100\nstorage_config:\n  filesystem:\n    directory: /data/loki/chunks\n';
    const json = JSON.stringify({ clusters: [{ url: 'https://kubernetes.default.svc', skipTLSVerify: false }], basic_auth: { password_file: '/etc/pw' } });
    // and configs with a literal password, a registry's auth, a PagerDuty routing key, a Slack webhook, a token in a URL's query
    const obj = secret('configs', {
      stringData: {
        'loki.yaml': loki,
        'password.yaml': loki.replace('auth_enabled: false', `auth_enabled: true\nbasic_auth:\n  password: ${PASSWORD}`),
        'config.json': JSON.stringify({ auths: { 'registry.acme.io': { auth: PASSWORD_B64 } } }),
        'alertmanager.yaml': `receivers:\n  - name: pager\n    pagerduty_configs:\n      - routing_key: ${TOKEN}\n`,
        'slack.yaml': `receivers:\n  - name: chat\n    slack_configs:\n      - api_url: https://hooks.slack.com/services/T0/B0/${TOKEN}\n`,
        'query.yaml': `remote_write:\n  - url: https://metrics.acme.io/push?token=${TOKEN}\n`,
      },
      data: { 'plain.json': Buffer.from(json).toString('base64') },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the configs that hold a credential are named, and no value is shown
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/stringData', ['alertmanager.yaml', 'config.json', 'password.yaml', 'query.yaml', 'slack.yaml']]]);
    expectNoValues(findings, [TOKEN, PASSWORD, PASSWORD_B64]);
  });

  test('passes on a credential key that holds only settings (a registry\'s htpasswd: {realm, path}), and names one that holds a value', () => {
    // GIVEN the Docker registry's config.yml, whose htpasswd names a realm and the file the users are read from
    const registry = 'version: 0.1\nhttp:\n  addr: :5000\n  auth:\n    htpasswd:\n      realm: basic-realm\n      path: /auth/htpasswd\n';
    const obj = secret('registry-config', {
      stringData: {
        'config.yml': registry,
        'users.yml': registry.replace('realm: basic-realm', `admin: ${PASSWORD}`),
        'nested.yml': registry.replace('path: /auth/htpasswd', `path: /auth/htpasswd\n      password: ${PASSWORD}`),
      },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN the settings alone are public; a value beside them is not
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/stringData', ['nested.yml', 'users.yml']]]);
    expectNoValues(findings, [PASSWORD]);
  });

  test('passes on a container image reference with its tag or digest, and names a value that only looks like a path', () => {
    // GIVEN an operator's Secret handing its sidecar image, base64 as a vendor manifest has it
    const image = 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.13.0';
    const digest = `registry.acme.io:5000/team/app@sha256:${'a'.repeat(64)}`;
    const obj = secret('plugin', {
      data: {
        SIDECAR_IMAGE: Buffer.from(image).toString('base64'),
        OTHER_IMAGE: Buffer.from(digest).toString('base64'),
        NO_TAG: Buffer.from('ghcr.io/acme/tool').toString('base64'),
        TOKEN: Buffer.from(TOKEN).toString('base64'),
      },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/data', ['NO_TAG', 'TOKEN']]]);
  });

  test('passes on OpenSSH public keys (one, or an authorized_keys list), and names a private key and a key line with more beside them', () => {
    // GIVEN public keys of three types, in stringData and base64 in data
    const rsa = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQCMchVse1VYh6QP6fmkr3 user@host';
    const authorized = `# deploy keys\n${rsa}\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ8u ci\necdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY=\n`;
    const obj = secret('vm-ssh-key', {
      stringData: {
        key: rsa,
        authorized_keys: authorized,
        id_ed25519: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----\n',
        mixed: `${rsa}\npassword=${PASSWORD}\n`,
      },
      data: { 'id_rsa.pub': Buffer.from(rsa).toString('base64') },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the private key and the mixed value are named
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/stringData', ['id_ed25519', 'mixed']]]);
    expectNoValues(findings, [PASSWORD]);
  });

  test('passes on the fields of Argo CD repository and cluster Secrets that hold no credential, and names their credentials', () => {
    // GIVEN a public repository, a credential template and a cluster, declared by their secret-type label
    const labelled = (name: string, type: string, fields: { [key: string]: unknown }): Manifest =>
      manifest('v1', 'Secret', name, { metadata: { namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } }, ...fields });
    const repository = labelled('repo-https', 'repository', {
      stringData: { name: 'platform', project: 'cluster-config', type: 'git', url: 'https://github.com/acme/platform.git', enableLfs: 'true', proxy: 'http://proxy:3128' },
    });
    const oci = labelled('longhorn', 'repository', { data: { type: Buffer.from('helm').toString('base64'), url: Buffer.from('https://charts.longhorn.io').toString('base64'), enableOCI: 'dHJ1ZQ==' } });
    const template = labelled('acme-creds', 'repo-creds', { stringData: { url: 'git@github.com:acme', type: 'git', insecureIgnoreHostKey: 'false' } });
    const cluster = labelled('in-cluster', 'cluster', {
      stringData: { name: 'pitower', server: 'https://kubernetes.default.svc', namespaces: 'a,b', clusterResources: 'true', config: '{"tlsClientConfig":{"insecure":false}}' },
    });
    // and credentials beside such fields: a password, an SSH private key, a token in the URL or the proxy, a cluster's bearer token
    const withPassword = labelled('private', 'repository', { stringData: { url: 'https://github.com/acme/private.git', username: 'bot', password: PASSWORD } });
    const withKey = labelled('ssh-creds', 'repo-creds', { stringData: { url: 'git@github.com:acme', sshPrivateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----' } });
    const inUrl = labelled('token-url', 'repository', { stringData: { url: `https://${TOKEN}@github.com/acme/a.git`, proxy: `http://user:${PASSWORD}@proxy:3128`, name: 'a' } });
    const remote = labelled('remote', 'cluster', { stringData: { name: 'remote', server: 'https://10.0.0.1', config: JSON.stringify({ bearerToken: TOKEN, tlsClientConfig: { insecure: false } }) } });
    // and the same public fields in a Secret without the label
    const unlabelled = secret('not-argocd', { stringData: { url: 'https://github.com/acme/platform.git', type: 'git' } });
    // WHEN
    const all = [repository, oci, template, cluster, withPassword, withKey, inUrl, remote, unlabelled];
    const findings = findingsOf(secretDataInGit, all);
    // THEN only the credentials are named, and the unlabelled Secret's keys are
    expect(findings.map((f) => [stringAt(f.object, 'metadata', 'name'), f.path, f.value])).toEqual([
      ['private', '/stringData', ['password', 'username']],
      ['ssh-creds', '/stringData', ['sshPrivateKey']],
      ['token-url', '/stringData', ['proxy', 'url']],
      ['remote', '/stringData', ['config']],
      ['not-argocd', '/stringData', ['type', 'url']],
    ]);
    expectNoValues(findings, [TOKEN, PASSWORD]);
  });

  test('passes on argocd-secret\'s webhook secrets that refer to another Secret, and names literal ones and other keys', () => {
    // GIVEN argocd-secret with webhook secrets as $<secret>:<key> references (stringData, and base64 in data)
    const obj = manifest('v1', 'Secret', 'argocd-secret', {
      stringData: { 'webhook.github.secret': '$argocd-webhooks:github', 'webhook.gitlab.secret': TOKEN, 'oidc.sso.clientSecret': '$argocd-sso:clientSecret' },
      data: { 'webhook.gogs.secret': Buffer.from('$webhook.gogs').toString('base64') },
    });
    // and the same reference in a Secret Argo CD does not read it from
    const other = secret('webhooks', { stringData: { 'webhook.github.secret': '$argocd-webhooks:github' } });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj, other]);
    // THEN a literal webhook secret, a key Argo CD does not resolve, and the other Secret are named
    expect(findings.map((f) => [stringAt(f.object, 'metadata', 'name'), f.path, f.value])).toEqual([
      ['argocd-secret', '/stringData', ['oidc.sso.clientSecret', 'webhook.gitlab.secret']],
      ['webhooks', '/stringData', ['webhook.github.secret']],
    ]);
  });

  test('passes on keys that hold HTML pages (OpenShift\'s login templates), and names a password beside them', () => {
    // GIVEN login and error templates (stringData, and base64 in data) and a password
    const page = '<!DOCTYPE html>\n<html><body><form method="post">{{ .Error }}</form></body></html>\n';
    const obj = secret('login-template', {
      stringData: { 'login.html': page, 'errors.html': '<html lang="en"><body>{{ .Error }}</body></html>' },
      data: { 'providers.html': Buffer.from(page).toString('base64'), 'password': PASSWORD_B64 },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the password is named
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/data', ['password']]]);
  });

  test('passes on ytt overlays that kapp-controller reads from Secrets, and names a password beside them', () => {
    // GIVEN overlays in stringData and data, as a PackageInstall's ytt-paths-from-secret-name points at, and a password
    const overlay = '#@ load("@ytt:overlay", "overlay")\n#@overlay/match by=overlay.subset({"kind": "StatefulSet"})\n---\nspec:\n  replicas: 1\n';
    const obj = secret('istio-overlay', {
      stringData: { 'overlay.yaml': overlay, 'match.yaml': '#@overlay/match by=overlay.all\n---\nmetadata: {}\n', 'values.yaml': '#@data/values\n---\nx: 1\n' },
      data: { 'more.yaml': Buffer.from(overlay).toString('base64'), 'password': PASSWORD_B64 },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the password is named; a value that is only a comment starting with "#@" is still a value
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/data', ['password']]]);
    expect(findingsOf(secretDataInGit, [secret('x', { stringData: { token: '#@hunter2' } })]).map((f) => f.value)).toEqual([['token']]);
  });

  test('passes on keys whose values SOPS encrypted (a Secret kept encrypted in Git), and names a plain one beside them', () => {
    // GIVEN a Secret encrypted by SOPS (KSOPS, helm-secrets), in stringData and data, with one key left in plain text
    const encrypted = (data: string) => `ENC[AES256_GCM,data:${data},iv:AAECAwQFBgcICQoL,tag:DA0ODxAREhMUFRYXGBkaGw==,type:str]`;
    const obj = secret('sops-encrypted', {
      stringData: { password: encrypted('aHVudGVyMg=='), token: encrypted('') },
      data: { 'tls.key': encrypted('LS0tLS1CRUdJTg=='), 'api-key': PASSWORD_B64 },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the plain key is named
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/data', ['api-key']]]);
  });

  test('fails when a key has an empty value, which self-heal would put back over the controller\'s value', () => {
    const placeholder = secret('placeholder', { data: { token: '' } });
    const findings = findingsOf(secretDataInGit, [placeholder], safeApplication());
    expectFindings(findings, placeholder, ['SA203 /data']);
    expect(findings[0].value).toEqual(['token']);
  });

  test('fails without an Application too, as audit checks loose manifests', () => {
    const db = secret('checkout-db', { data: { password: PASSWORD_B64 } });
    expectFindings(findingsOf(secretDataInGit, [db]), db, ['SA203 /data']);
  });

  test('a reasoned suppression on the Secret is honoured and reported', () => {
    // GIVEN a Secret whose values a plugin substitutes at render time, with a reasoned suppression
    const reason = 'values are <path:...> placeholders that argocd-vault-plugin fills at render time';
    const avp = secret('checkout-db', {
      metadata: { annotations: { [suppressionKey('SA203')]: reason } },
      stringData: { password: '<path:kv/data/checkout#password>' },
    });
    // WHEN
    const findings = findingsOf(secretDataInGit, [avp], safeApplication());
    // THEN the finding is kept, marked as suppressed with its reason
    expect(described(findings)).toEqual(['SA203 /stringData']);
    expect(findings[0].suppressedBecause).toBe(reason);
    expect(unsuppressed(findings)).toEqual([]);
  });

  test('passes on what the library renders for examples/checkout', () => {
    const { application, resources, argoCdVersion } = renderedCheckout();
    expect(findingsOf(secretDataInGit, resources, application, argoCdVersion)).toEqual([]);
  });
});

describe('SA203 over a SafeApplication\'s own manifests', () => {
  test('fails on a raw Secret ApiObject with data, naming the key and not the value', () => {
    // GIVEN a SafeApplication with a raw Secret whose password is base64 in Git
    const { app } = newApp();
    const raw = new ApiObject(app, 'x', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: PASSWORD_B64 } });
    // WHEN the rule runs over what the app renders: its Application and its workloads
    const resources = workloadsOf(app);
    const findings = runRules({ application: app.resource.toJson() as Manifest, resources, argoCdVersion: app.argoCdVersion }, [secretDataInGit]);
    // THEN
    const rendered = resources.find((m) => m.kind === 'Secret');
    expect(rendered).toEqual(raw.toJson());
    expectFindings(findings, rendered as Manifest, ['SA203 /data']);
    expect(findings[0].message).toBe('Secret payments/s declares key "password" in data; its value is committed to Git');
    expectNoValues(findings, [PASSWORD_B64, PASSWORD]);
  });

  test('passes on a raw Secret without data, such as a placeholder filled by a controller', () => {
    const { app } = newApp();
    new ApiObject(app, 'x', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls' });
    const resources = workloadsOf(app);
    const findings = runRules({ application: app.resource.toJson() as Manifest, resources, argoCdVersion: app.argoCdVersion }, [secretDataInGit]);
    expect(findings).toEqual([]);
  });
});

/** The manifests an app deploys: every ApiObject in it but the Application. */
function workloadsOf(app: SafeApplication): Manifest[] {
  return app.node.findAll()
    .filter((c): c is ApiObject => ApiObject.isApiObject(c) && c !== app.resource)
    .map((o) => o.toJson() as Manifest);
}

describe('SA203 on a kustomization secretGenerator', () => {
  const kustomization = (secretGenerator: unknown[]): Manifest => ({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', secretGenerator });

  test('fails on literals, files and envs, naming keys and files, never values', () => {
    // GIVEN a generator from a literal token, a htpasswd file and an env file
    const obj = kustomization([{ name: 'connect', literals: ['token=Y2hhbmdlbWU='] }, { name: 'htpass', files: ['htpasswd=files/users.htpasswd', 'ca.crt'], envs: ['db.env'] }]);
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN
    expect(findings.map((f) => [f.path, f.value])).toEqual([
      ['/secretGenerator/0/literals', ['token']],
      ['/secretGenerator/1/files', ['htpasswd', 'ca.crt']],
      ['/secretGenerator/1/envs', ['db.env']],
    ]);
    expect(findings.map((f) => f.message).join()).not.toContain('Y2hhbmdlbWU=');
  });

  test('passes on HTML pages generated from files (OpenShift\'s login templates), and names a key file beside them', () => {
    // GIVEN a generator of login and provider pages, and one of a page and a private key
    const obj = kustomization([{ name: 'login', files: ['login/login.html', 'providers.html=login/providers.HTM'] }, { name: 'mixed', files: ['errors.html', 'tls.key'] }]);
    // WHEN
    const findings = findingsOf(secretDataInGit, [obj]);
    // THEN only the key file is named
    expect(findings.map((f) => [f.path, f.value])).toEqual([['/secretGenerator/1/files', ['tls.key']]]);
  });

  test('passes on a configMapGenerator and on a generator with no values from the repository', () => {
    const obj: Manifest = { ...kustomization([{ name: 'empty', options: { disableNameSuffixHash: true } }]), configMapGenerator: [{ name: 'settings', literals: ['mode=production'] }] };
    expect(findingsOf(secretDataInGit, [obj])).toEqual([]);
  });
});
