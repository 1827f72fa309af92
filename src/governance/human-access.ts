import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { SafeApplication } from '../application/safe-application';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Subdomain, suggestDns1123Label } from '../core/names';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const RBAC_API_VERSION = `${RBAC_GROUP}/v1`;

/**
 * SSO group names as identity providers emit them: letters, digits and `-._:@/`, starting and ending with a
 * letter or digit. Wider than DNS because real group claims carry prefixes (`oidc:team`), org separators
 * (`acme:platform`) and mail addresses (`team@example.com`), and RBAC matches them case-sensitively.
 */
const GROUP_NAME = /^[A-Za-z0-9]([A-Za-z0-9._:@/-]*[A-Za-z0-9])?$/;
const MAX_GROUP_NAME = 253;

/** The namespaced resources humans may read, by API group, in the order they are rendered. */
const READABLE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['', ['configmaps', 'endpoints', 'events', 'persistentvolumeclaims', 'pods', 'serviceaccounts', 'services']],
  ['apps', ['daemonsets', 'deployments', 'replicasets', 'statefulsets']],
  ['autoscaling', ['horizontalpodautoscalers']],
  ['batch', ['cronjobs', 'jobs']],
  ['networking.k8s.io', ['ingresses', 'networkpolicies']],
  ['policy', ['poddisruptionbudgets']],
];
const READ_VERBS = ['get', 'list', 'watch'];

/**
 * The two subresources that need `create`. The API server authorizes the SPDY stream (a POST) as `create`
 * and the WebSocket upgrade (a GET, the default of kubectl 1.30+ for exec and 1.31+ for port-forward) as
 * `get`; from Kubernetes 1.35 the upgrade also needs `create` (KEP-4006). Both verbs make both work.
 */
const STREAM_VERBS = ['create', 'get'];
const STREAMS = ['pods/exec', 'pods/portforward'];

/** An RBAC policy rule as rendered. */
interface PolicyRule {
  readonly apiGroups: string[];
  readonly resources: string[];
  readonly verbs: string[];
}

/**
 * Props of a {@link HumanAccess}.
 */
export interface HumanAccessProps {
  /**
   * The SSO groups whose members get access, as the cluster's authenticator reports them (with any
   * `--oidc-groups-prefix`, e.g. `oidc:payments-oncall`). At least one. Kubernetes `system:` groups are
   * refused: `system:authenticated` is everyone with a token, service accounts included.
   */
  readonly groups: string[];

  /**
   * The name of the Role and of the RoleBinding. Explicit, because renaming them makes Argo CD prune and
   * recreate both. A DNS-1123 subdomain.
   *
   * @default - `<application name>-humans`
   * @see https://kubernetes.io/docs/reference/access-authn-authz/rbac/#role-and-clusterrole
   */
  readonly name?: string;

  /**
   * Whether the groups may run `kubectl exec` in the app's pods (`create` and `get` on `pods/exec`).
   * Exec runs as the container: it reads what the container can read (mounted Secrets, environment, the
   * service account token) and can change its files, which Argo CD neither sees nor reverts. Switch it off
   * for namespaces whose pods hold data the groups must not see.
   *
   * @default true - on-call engineers can debug a running pod
   * @see https://kubernetes.io/docs/reference/access-authn-authz/authorization/#determine-the-request-verb
   */
  readonly allowExec?: boolean;

  /**
   * Whether the groups may run `kubectl port-forward` to the app's pods (`create` and `get` on
   * `pods/portforward`). It reaches ports that no Service or NetworkPolicy exposes.
   *
   * @default false - no rule for pods/portforward
   * @see https://kubernetes.io/docs/tasks/access-application-cluster/port-forward-access-application-cluster/
   */
  readonly allowPortForward?: boolean;
}

/**
 * Read access, logs and exec for people on the namespace an app deploys to, and nothing that writes:
 * changes go through Git, and Argo CD's application controller applies them.
 *
 * Renders a namespaced Role and a RoleBinding of the same name in the app's destination namespace:
 * - `get`, `list`, `watch` on the common namespaced resources (pods, services, endpoints, configmaps,
 *   events, persistentvolumeclaims, serviceaccounts; deployments, replicasets, statefulsets, daemonsets;
 *   jobs, cronjobs; horizontalpodautoscalers; ingresses, networkpolicies; poddisruptionbudgets);
 * - `get` on `pods/log`;
 * - `create` and `get` on `pods/exec` (see `allowExec`) and, when asked, on `pods/portforward`.
 *
 * Secrets are not readable: `get` or `list` on them returns their values. No other verb is granted on any
 * resource. The check runs again at synth, so a JSON patch on the Role (`ApiObject.of(access)`) that adds
 * a write verb, secrets or a wildcard fails the synth with `[SAFE-025]`.
 *
 * The Role is the child `Resource` (`ApiObject.of(access)`); the RoleBinding is `roleBinding`.
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/rbac/
 */
export class HumanAccess extends Construct {
  /** The name of the Role and the RoleBinding. */
  public readonly roleName: string;
  /** The namespace they are in: the app's destination namespace. */
  public readonly namespace: string;
  /** The SSO groups bound to the Role. */
  public readonly groups: string[];
  /** Whether the groups may exec into pods. */
  public readonly allowExec: boolean;
  /** Whether the groups may port-forward to pods. */
  public readonly allowPortForward: boolean;
  /** The Role. */
  public readonly role: ApiObject;
  /** The RoleBinding. */
  public readonly roleBinding: ApiObject;

  public constructor(scope: Construct, id: string, props: HumanAccessProps) {
    super(scope, id);
    const app = SafeApplication.enclosing(this);
    if (app.externalSource) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, this, 'scope', app.node.path,
        'deploys an external source, so Argo CD would never apply objects defined in it', 'define HumanAccess in a SafeApplication without externalSource that deploys to the same namespace');
    }

    this.namespace = app.destinationNamespace;
    this.roleName = checkRoleName(this, props.name ?? `${app.applicationName}-humans`);
    this.groups = checkGroups(this, props.groups);
    this.allowExec = props.allowExec ?? true;
    this.allowPortForward = props.allowPortForward ?? false;

    this.role = new ApiObject(this, 'Resource', {
      apiVersion: RBAC_API_VERSION,
      kind: 'Role',
      metadata: { name: this.roleName, namespace: this.namespace },
      rules: this.renderRules(),
    });
    this.roleBinding = new ApiObject(this, 'Binding', {
      apiVersion: RBAC_API_VERSION,
      kind: 'RoleBinding',
      metadata: { name: this.roleName, namespace: this.namespace },
      roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: this.roleName },
      subjects: this.groups.map((name) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name })),
    });

    this.node.addValidation({ validate: () => this.validateAccess(app) });
  }

  private renderRules(): PolicyRule[] {
    const rules: PolicyRule[] = READABLE.map(([group, resources]) => ({
      apiGroups: [group],
      resources: [...resources],
      verbs: [...READ_VERBS],
    }));
    rules.push({ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] });
    if (this.allowExec) {
      rules.push({ apiGroups: [''], resources: ['pods/exec'], verbs: [...STREAM_VERBS] });
    }
    if (this.allowPortForward) {
      rules.push({ apiGroups: [''], resources: ['pods/portforward'], verbs: [...STREAM_VERBS] });
    }
    return rules;
  }

  /** Checks the rendered objects, so escape hatches cannot widen the grant unnoticed. */
  private validateAccess(app: SafeApplication): string[] {
    const errors: string[] = [];
    const role = this.role.toJson();
    const rules: unknown[] = Array.isArray(role.rules) ? role.rules : [];
    rules.forEach((rule, i) => {
      for (const problem of grantProblems(rule)) {
        errors.push(`[${ErrorCode.HUMAN_WRITE_ACCESS}] Role ${this.namespace}/${this.roleName} rule ${i} ${problem}; `
          + 'writes are for Argo CD\'s application controller. Fix: remove the patch that widened the Role, and change the '
          + 'workload in Git instead.');
      }
    });
    const binding = this.roleBinding.toJson();
    const ref = binding.roleRef ?? {};
    if (ref.kind !== 'Role' || ref.name !== this.roleName || ref.apiGroup !== RBAC_GROUP) {
      errors.push(`[${ErrorCode.HUMAN_WRITE_ACCESS}] RoleBinding ${this.namespace}/${this.roleName} binds ${JSON.stringify(ref)} instead of `
        + `its Role ${this.roleName}. Fix: remove the patch that changed roleRef.`);
    }

    // Another Role or RoleBinding of this name: reported once per construct that defines it.
    const all = app.node.findAll();
    const clashes = new Set<IConstruct>();
    for (const other of all) {
      if (ApiObject.isApiObject(other) && other.apiVersion === RBAC_API_VERSION && (other.kind === 'Role' || other.kind === 'RoleBinding')
        && other.name === this.roleName && (other.metadata.namespace ?? this.namespace) === this.namespace) {
        const owner = other.node.scope instanceof HumanAccess ? other.node.scope : other;
        // Of two HumanAccess, the later one reports.
        if (owner !== this && !(owner instanceof HumanAccess && all.indexOf(owner) > all.indexOf(this))) {
          clashes.add(owner);
        }
      }
    }
    for (const owner of clashes) {
      errors.push(`[${ErrorCode.DUPLICATE}] ${owner.node.path} also defines a Role or RoleBinding ${this.namespace}/${this.roleName}; `
        + 'Argo CD would apply both to one object. Fix: give each HumanAccess its own `name`.');
    }
    return errors;
  }
}

/** What a rendered rule grants beyond reading, logs, exec and port-forward; empty when nothing. */
function grantProblems(rule: unknown): string[] {
  const r = (typeof rule === 'object' && rule !== null ? rule : {}) as Record<string, unknown>;
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
  const verbs = list(r.verbs);
  const resources = list(r.resources);
  const problems: string[] = [];
  if (list(r.nonResourceURLs).length > 0 || list(r.apiGroups).includes('*') || resources.includes('*') || verbs.includes('*')) {
    problems.push('grants a wildcard or non-resource URL');
  }
  if (resources.includes('secrets')) {
    problems.push('grants access to secrets, whose reads return their values');
  }
  const streamsOnly = resources.length > 0 && resources.every((x) => STREAMS.includes(x));
  const allowed = streamsOnly ? STREAM_VERBS : READ_VERBS;
  const extra = verbs.filter((v) => v !== '*' && !allowed.includes(v));
  if (extra.length > 0) {
    problems.push(`grants ${extra.join(', ')} on ${resources.join(', ') || 'no resource'}`);
  }
  return problems;
}

function checkRoleName(scope: IConstruct, name: string): string {
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    throw badValue(ErrorCode.INVALID_NAME, scope, 'name', name,
      'must be a DNS-1123 subdomain: lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters', `use e.g. ${JSON.stringify(suggestDns1123Label(String(name ?? '')))}`);
  }
  return name;
}

function checkGroups(scope: IConstruct, groups: string[]): string[] {
  if (!Array.isArray(groups) || groups.length === 0) {
    throw badValue(ErrorCode.INVALID_GROUP, scope, 'groups', groups,
      'must name at least one SSO group', 'pass the groups of the people who run this app, e.g. groups: [\'payments-oncall\']');
  }
  groups.forEach((group, i) => {
    const bad = (allowed: string, fix: string) => badValue(ErrorCode.INVALID_GROUP, scope, `groups[${i}]`, group, allowed, fix);
    if (typeof group !== 'string' || group.length > MAX_GROUP_NAME || !GROUP_NAME.test(group)) {
      throw bad(`must be an SSO group name: letters, digits and "-._:@/", starting and ending with a letter or digit, at most ${MAX_GROUP_NAME} characters`,
        'give the group exactly as the cluster\'s authenticator reports it (one group per entry, no spaces or wildcards)');
    }
    if (group.toLowerCase().startsWith('system:')) {
      throw bad('names a Kubernetes system group: system:authenticated is everyone with a token, service accounts included, and system:masters bypasses RBAC',
        'name the SSO group of the people who run this app');
    }
    const first = groups.indexOf(group);
    if (first !== i) {
      throw badValue(ErrorCode.DUPLICATE, scope, `groups[${i}]`, group, `repeats groups[${first}]`, 'list each group once');
    }
  });
  return [...groups];
}
