import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, describeObject, isObject, listAt, Manifest, sourcesOf, stringAt } from '../core/manifest';

/**
 * Names reserved for documentation and tests (RFC 2606, RFC 6761): no repository or registry is ever served
 * there, so a URL or image naming one is a placeholder nobody replaced.
 */
const RESERVED_NAMES = ['example.com', 'example.net', 'example.org', 'example', 'invalid', 'test'];
const RESERVED_SUFFIXES = RESERVED_NAMES.map((name) => `.${name}`);

/** Whether `host` is, or lies under, a reserved name. */
export function isReservedHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return RESERVED_NAMES.includes(name) || RESERVED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/** The host of a repository URL as Argo CD takes them (`https://`, `ssh://`, `oci://`, `git@host:path`). */
export function repoHost(url: string): string | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(url);
  if (scheme) {
    return scheme[1];
  }
  return /^[^@/\s]+@([^:/\s]+):/.exec(url)?.[1];
}

/** The registry host of an image reference; undefined for Docker Hub's short names (`nginx`, `library/nginx`). */
export function imageHost(image: string): string | undefined {
  const slash = image.indexOf('/');
  if (slash < 0) {
    return undefined;
  }
  const first = image.slice(0, slash);
  return /[.:]/.test(first) || first === 'localhost' ? first.replace(/:\d+$/, '') : undefined;
}

/** Where a kind keeps its pod spec. */
const POD_SPEC_PATHS: { readonly [kind: string]: readonly string[] } = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  Rollout: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

function imageViolations(obj: Manifest): Violation[] {
  const path = typeof obj.kind === 'string' && Object.hasOwn(POD_SPEC_PATHS, obj.kind) ? POD_SPEC_PATHS[obj.kind] : undefined;
  if (!path) {
    return [];
  }
  const podSpec = at(obj, ...path);
  if (!isObject(podSpec)) {
    return [];
  }
  const found: Violation[] = [];
  for (const list of CONTAINER_LISTS) {
    listAt(podSpec, list).forEach((container, i) => {
      const image = isObject(container) ? stringAt(container, 'image') : undefined;
      const host = image === undefined ? undefined : imageHost(image);
      if (host !== undefined && isReservedHost(host)) {
        found.push({
          object: obj,
          path: `/${path.join('/')}/${list}/${i}/image`,
          message: `${describeObject(obj)} runs image ${image}, whose registry ${host} is a placeholder: no cluster can pull it`,
          value: image,
        });
      }
    });
  }
  return found;
}

/** A repository URL or an image left at a placeholder address. */
export const placeholderAddress: Rule = {
  id: 'SA009',
  name: 'placeholder-address',
  severity: Severity.WARNING,
  auditOnly: true,
  summary: 'A repository URL or an image names a placeholder host (example.com, .example, .invalid, .test).',
  explanation:
    'These names are reserved for documentation and tests (RFC 2606, RFC 6761): no repository or registry is served '
    + 'there. An Application whose source names one never syncs (Argo CD cannot fetch its manifests), and a Pod whose '
    + 'image names one never starts. It is what a copied example or a scaffold (`safe-argocd new` without '
    + '`--repo-url` and `--image`) leaves behind. A synth accepts it, so that a new app can be rendered and read '
    + 'before it is wired to real addresses; the audit in CI is where it must be gone.',
  fix: 'Replace it with the repository registered in Argo CD and the image your CI publishes (`safe-argocd new` takes '
    + 'them as --repo-url and --image).',
  check({ application, resources }) {
    const found: Violation[] = [];
    if (application) {
      for (const { source, path } of sourcesOf(application)) {
        const url = stringAt(source, 'repoURL');
        const host = url === undefined ? undefined : repoHost(url);
        if (host !== undefined && isReservedHost(host)) {
          found.push({
            object: application,
            path: `${path}/repoURL`,
            message: `the source repository ${url} is on ${host}, a placeholder host: Argo CD cannot fetch it`,
            value: url,
          });
        }
      }
    }
    for (const obj of resources) {
      found.push(...imageViolations(obj));
    }
    return found;
  },
};
