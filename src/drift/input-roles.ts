import { isMap, Json } from './json';
import { ErrorCode, failure } from '../core/errors';
import { groupOf } from '../core/kinds';
import { isApplication } from '../core/manifest';

/** One input of a drift simulation, as the caller names it. */
export interface NamedDriftInput {
  /** How the caller names this input, e.g. `--app`. */
  readonly name: string;
  /** Where it was read from, e.g. the file. */
  readonly source: string;
  readonly manifest: Json;
}

/** The three inputs of a drift simulation: the Application, the resource as Git has it, and as the cluster has it. */
export interface NamedDriftInputs {
  readonly application: NamedDriftInput;
  readonly desired: NamedDriftInput;
  readonly live?: NamedDriftInput;
}

/**
 * Refuses inputs in the wrong places before a simulation answers for them: an application that is not an
 * Argo CD Application (most often it was swapped with the desired or live object), or a live object of
 * another kind than the desired one. An Application is accepted as the desired and live object when the
 * application is one too: that is a child Application under an app-of-apps root.
 *
 * An Application is what the audit takes for one: kind `Application` in the `argoproj.io` group.
 *
 * @throws [SAFE-104] naming the input, where it came from, the kind found and the fix
 */
export function checkDriftInputs(inputs: NamedDriftInputs): void {
  const { application, desired, live } = inputs;
  if (!isApplication(application.manifest)) {
    const swapped = [desired, live].find((i) => i !== undefined && isApplication(i.manifest));
    const fix = swapped !== undefined
      ? `did you swap ${application.name} and ${swapped.name}? ${application.name} takes the Application, ${swapped.name} the resource it deploys`
      : `give ${application.name} the Argo CD Application that deploys the resource in ${desired.name}`
        + (kindOf(application.manifest).kind === 'ApplicationSet' ? ' (for an ApplicationSet: one Application it generates)' : '');
    throw failure(ErrorCode.SWAPPED_INPUT, `${application.name} ${application.source} is ${describeKind(application.manifest)}, `
      + `not an Argo CD Application (argoproj.io/v1alpha1 Application). Fix: ${fix}.`);
  }
  if (live !== undefined && !sameKind(desired.manifest, live.manifest)) {
    const kind = kindOf(desired.manifest).kind;
    const fix = isApplication(live.manifest)
      ? `did you give the Application as ${live.name}? ${live.name} takes the ${kind} as the cluster has it`
      : `give ${live.name} the ${kind} as the cluster has it`;
    throw failure(ErrorCode.SWAPPED_INPUT, `${live.name} ${live.source} is ${describeKind(live.manifest)}, but ${desired.name} ${desired.source} `
      + `is ${describeKind(desired.manifest)}: the live object must be the resource ${desired.name} describes. Fix: ${fix}, `
      + `e.g. kubectl get ${kind.toLowerCase()} ${nameOf(desired.manifest)} -o yaml > live.yaml.`);
  }
}

function kindOf(manifest: Json): { apiVersion: string; kind: string } {
  const obj = isMap(manifest) ? manifest : {};
  return { apiVersion: String(obj.apiVersion ?? ''), kind: String(obj.kind ?? '') };
}


/** Same group and kind: a live object may come back at another version than Git's. */
function sameKind(a: Json, b: Json): boolean {
  const [ka, kb] = [kindOf(a), kindOf(b)];
  return ka.kind === kb.kind && groupOf(ka.apiVersion) === groupOf(kb.apiVersion);
}

function describeKind(manifest: Json): string {
  const { apiVersion, kind } = kindOf(manifest);
  return `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind} (${apiVersion})`;
}

function nameOf(manifest: Json): string {
  const metadata = isMap(manifest) && isMap(manifest.metadata) ? manifest.metadata : {};
  const namespace = typeof metadata.namespace === 'string' ? ` -n ${metadata.namespace}` : '';
  return `${typeof metadata.name === 'string' ? metadata.name : '<name>'}${namespace}`;
}
