import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { DestinationCluster } from '../values/destination-cluster';
import { NotificationSubscription } from '../values/notification';

// The marker symbols of SafeApplication and AppOfApps, defined here so that this module and the GitOpsApp can
// recognize them without importing the classes (which would be circular). `Symbol.for`, so that two copies
// of the library recognize each other's constructs.
export const SAFE_APPLICATION = Symbol.for('cdk8s-safe-argocd.SafeApplication');
export const APP_OF_APPS = Symbol.for('cdk8s-safe-argocd.AppOfApps');
export const SAFE_PROJECT = Symbol.for('cdk8s-safe-argocd.SafeProject');
export const SAFE_APPLICATION_SET = Symbol.for('cdk8s-safe-argocd.SafeApplicationSet');

/** What a SafeProject decides about the Applications of its project. */
export interface ProjectGate {
  /** The AppProject, for what the runbook says about its sync windows. */
  readonly resource: ApiObject;
  /** Who Argo CD Notifications tells about every Application of the project. */
  readonly notifications: NotificationSubscription[];
  allowsDestination(namespace: string, cluster: DestinationCluster): boolean;
  allowsSource(repoUrl: string): boolean;
}

/** `x` as a SafeProject, recognized by its marker, or undefined when it is something else. */
export function asSafeProject(x: unknown): ProjectGate | undefined {
  return typeof x === 'object' && x !== null && SAFE_PROJECT in x ? x as unknown as ProjectGate : undefined;
}

/**
 * The whole-tree lookups of one synth, gathered by one walk of the tree, and each object's rendered
 * manifest, rendered once.
 *
 * Without it, every app-of-apps root (for its children's ignore rules, each time its spec renders) and every
 * app (for its runbook's root) walked the whole tree, and every object was rendered twice (validation, then
 * writing): synth time grew with the square of the number of apps. A GitOpsApp holds an index only while it
 * validates and renders, when the tree no longer changes; outside that, callers walk the tree as before.
 */
export class SynthIndex {
  /** Every construct of the tree, in `findAll()` order (pre-order). */
  public readonly all: IConstruct[];
  private readonly appsByProject = new Map<string, IConstruct[]>();
  private readonly rootsByChildProject = new Map<string, IConstruct[]>();
  private readonly projectsByName = new Map<string, IConstruct[]>();
  private readonly objectsByApplication = new Map<IConstruct, ApiObject[]>();
  private readonly manifests = new Map<ApiObject, Record<string, any>>();

  public constructor(root: IConstruct) {
    this.all = root.node.findAll();
    for (const c of this.all) {
      if (SAFE_APPLICATION in c) {
        add(this.appsByProject, (c as unknown as { projectName: string }).projectName, c);
      }
      if (SAFE_PROJECT in c) {
        add(this.projectsByName, (c as unknown as { projectName: string }).projectName, c);
      }
      if (APP_OF_APPS in c) {
        add(this.rootsByChildProject, (c as unknown as { childProjectName: string }).childProjectName, c);
      }
      const application = ApiObject.isApiObject(c) ? nearestApplication(c) : undefined;
      if (application) {
        add(this.objectsByApplication, application, c as ApiObject);
      }
    }
  }

  /** The SafeApplications (roots included) of one project, in tree order. */
  public applicationsOf(project: string): IConstruct[] {
    return this.appsByProject.get(project) ?? [];
  }

  /** The first SafeProject of the tree with this name, if the app defines one. */
  public projectNamed(name: string): IConstruct | undefined {
    return this.projectsByName.get(name)?.[0];
  }

  /** The app-of-apps roots that deploy one project's Applications, in tree order. */
  public rootsOf(childProject: string): IConstruct[] {
    return this.rootsByChildProject.get(childProject) ?? [];
  }

  /** The ApiObjects whose nearest SafeApplication is `application` (through any plain charts), in tree order. */
  public objectsOf(application: IConstruct): ApiObject[] {
    return this.objectsByApplication.get(application) ?? [];
  }

  /**
   * `obj.toJson()`, rendered once per synth. Callers treat the manifest as read-only (rules are pure), so
   * validation and writing can share it.
   */
  public manifestOf(obj: ApiObject): Record<string, any> {
    const cached = this.manifests.get(obj);
    if (cached !== undefined) {
      return cached;
    }
    const manifest: Record<string, any> = obj.toJson();
    this.manifests.set(obj, manifest);
    return manifest;
  }
}

/** The nearest SafeApplication that `c` is in, itself included. */
export function nearestApplication(c: IConstruct): IConstruct | undefined {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
    if (SAFE_APPLICATION in s) {
      return s;
    }
  }
  return undefined;
}

const active = new WeakMap<IConstruct, SynthIndex>();

/** The index of the synth `scope`'s tree is in, if one is running. */
export function synthIndexOf(scope: IConstruct): SynthIndex | undefined {
  return active.get(scope.node.root);
}

/** `obj.toJson()`, from the running synth's index when there is one. */
export function manifestOf(obj: ApiObject): Record<string, any> {
  return synthIndexOf(obj)?.manifestOf(obj) ?? obj.toJson();
}

/** Runs `fn` with an index of `root`'s tree; the tree must not change while it runs. */
export function withSynthIndex<T>(root: IConstruct, fn: (index: SynthIndex) => T): T {
  const running = active.get(root);
  if (running) {
    return fn(running);
  }
  const index = new SynthIndex(root);
  active.set(root, index);
  try {
    return fn(index);
  } finally {
    active.delete(root);
  }
}

function add<K, V>(map: Map<K, V[]>, key: K, c: V): void {
  const list = map.get(key);
  if (list) {
    list.push(c);
  } else {
    map.set(key, [c]);
  }
}
