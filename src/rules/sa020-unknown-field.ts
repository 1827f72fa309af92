import { FIELD_NODES, FIELD_ROOTS, FieldNode } from './argocd-fields';
import { Severity } from './severity';
import { Rule, Violation } from './types';
import { escapeToken, keysFromPointer } from '../core/json-pointer';
import { describeObject, isApplication, isApplicationSet, isAppProject, isObject, Manifest, objectsWhere } from '../core/manifest';
import { closestIgnoringCase } from '../core/text';

/** A field of an Application, ApplicationSet or AppProject that no CRD of Argo CD defines. */
export const unknownField: Rule = {
  id: 'SA020',
  name: 'unknown-field',
  severity: Severity.ERROR,
  summary: 'An Application, ApplicationSet or AppProject has a field Argo CD\'s CRD does not define: misspelt or in the wrong place.',
  explanation:
    'The API server checks Argo CD\'s objects against their CRDs. Argo CD applies an app-of-apps child with field validation '
    + 'Strict (gitops-engine\'s apply, unless the sync option Validate=false), and so does kubectl apply by default: the object '
    + 'is refused with "unknown field", and its parent\'s sync fails on it. Applied without validation, the API server drops '
    + 'the field. Either way the setting it was meant for never takes effect: a `selfheal: true` leaves self-heal off, a '
    + '`syncPolicy` beside `spec` instead of under it leaves the app unautomated, an `ignoreDifference` ignores nothing. '
    + 'A field is known when a CRD of any release this library supports defines it (schemas/argo-cd); maps and fields the '
    + 'CRDs leave open (labels, annotations, valuesObject, list generator elements) take any key.',
  fix: 'Spell the field as Argo CD does and put it where the CRD has it; the finding names the field meant when one is close '
    + '(a letter or two, or its case, away) or the place where Argo CD reads a field of that name.',
  check({ application, resources }) {
    const found: Violation[] = [];
    // An Application among the resources (an app-of-apps root's children) is judged as the application of its own unit.
    const objects = objectsWhere(undefined, resources, isSetOrProject);
    if (application !== undefined && (isApplication(application) || isSetOrProject(application))) {
      objects.unshift(application);
    }
    for (const object of objects) {
      const root = FIELD_ROOTS[object.kind as string];
      walk({ object, root, found, hints: HINTED_PER_OBJECT }, object, FIELD_NODES[root], '');
    }
    return found;
  },
};

function isSetOrProject(value: unknown): boolean {
  return isApplicationSet(value) || isAppProject(value);
}

/**
 * How many unknown fields of one object get a hint: each costs a comparison with every field known there, and an
 * object of thousands of unknown fields (hostile input) would otherwise take that many times as long.
 */
const HINTED_PER_OBJECT = 32;

/** One object's walk: the object, its kind's root node, the findings, and how many hints are left. */
interface Walk {
  readonly object: Manifest;
  readonly root: number;
  readonly found: Violation[];
  hints: number;
}

/** The fields under `value` that `node` does not define, each reported once, without descending into them. */
function walk(w: Walk, value: unknown, node: FieldNode, pointer: string): void {
  if (node.open) {
    return;
  }
  if (Array.isArray(value)) {
    if (node.items !== undefined) {
      const items = FIELD_NODES[node.items];
      for (let i = 0; i < value.length; i++) {
        if (typeof value[i] === 'object' && value[i] !== null) {
          walk(w, value[i], items, `${pointer}/${i}`);
        }
      }
    }
    return;
  }
  if (!isObject(value) || (node.fields === undefined && node.values === undefined)) {
    return;
  }
  for (const key of Object.keys(value)) {
    const child = node.fields !== undefined && Object.hasOwn(node.fields, key) ? node.fields[key] : node.values;
    if (child === undefined) {
      if (!key.includes('{{')) {
        const hinted = w.hints-- > 0;
        w.found.push({ object: w.object, path: `${pointer}/${escapeToken(key)}`, message: message(w, pointer, key, hinted ? node : undefined), value: key });
      }
      continue;
    }
    // Scalars have no fields to check: only objects and lists are walked into.
    const inner = value[key];
    const childNode = FIELD_NODES[child];
    if (typeof inner === 'object' && inner !== null && !childNode.open) {
      walk(w, inner, childNode, `${pointer}/${escapeToken(key)}`);
    }
  }
}

/** What the finding says; with a hint (the field meant, or where Argo CD reads one of that name) when `node` is given. */
function message(w: Walk, parent: string, key: string, node: FieldNode | undefined): string {
  const where = parent === '' ? 'at the top level' : `under ${dotted(parent)}`;
  const meant = node === undefined ? undefined : closestField(key, Object.keys(node.fields ?? {}));
  const elsewhere = node === undefined || meant !== undefined ? undefined : placeOf(key, w.root);
  const hint = meant !== undefined ? `; did you mean ${JSON.stringify(meant)}?`
    : elsewhere !== undefined ? `; Argo CD reads ${JSON.stringify(key)} at ${elsewhere}` : '';
  return `${describeObject(w.object)} has the field ${JSON.stringify(key)} ${where}, which Argo CD's CRD does not define: applied with `
    + `validation, as Argo CD and kubectl apply do by default, the object is refused, and without it the field is dropped${hint}`;
}

/** The longest field name compared for a did-you-mean: longer keys are no misspelling of a CRD field. */
const MAX_COMPARED_LENGTH = 64;

/** A known field that `key` misspells: the same but for case, else one or two letters away (fewer for short names). */
function closestField(key: string, known: readonly string[]): string | undefined {
  if (key.length > MAX_COMPARED_LENGTH) {
    return undefined;
  }
  return closestIgnoringCase(key.toLowerCase(), known, (key.length >= 8 ? 2 : key.length >= 4 ? 1 : 0) + 1);
}

/** Where in the kind's object Argo CD reads a field named `key`: the shallowest place, when it is the only one that shallow. */
function placeOf(key: string, root: number): string | undefined {
  let level: { node: number; pointer: string }[] = [{ node: root, pointer: '' }];
  const seen = new Set<number>();
  for (let depth = 0; depth < 8 && level.length > 0; depth++) {
    const places = level.filter(({ node }) => FIELD_NODES[node].fields !== undefined && Object.hasOwn(FIELD_NODES[node].fields!, key));
    if (places.length > 0) {
      return places.length === 1 ? dotted(`${places[0].pointer}/${escapeToken(key)}`) : undefined;
    }
    const next: { node: number; pointer: string }[] = [];
    for (const { node, pointer } of level) {
      if (seen.has(node)) {
        continue;
      }
      seen.add(node);
      const n = FIELD_NODES[node];
      for (const [name, child] of Object.entries(n.fields ?? {})) {
        next.push({ node: child, pointer: `${pointer}/${escapeToken(name)}` });
      }
      if (n.items !== undefined) {
        next.push({ node: n.items, pointer: `${pointer}/-` });
      }
    }
    level = next;
  }
  return undefined;
}

/** A pointer as people read a field's place: `spec.syncPolicy.automated`, `spec.sources[0].helm`, `spec.sources[].helm` for any item. */
function dotted(pointer: string): string {
  return keysFromPointer(pointer).reduce((text, key) => (/^(\d+|-)$/.test(key) ? `${text}[${key === '-' ? '' : key}]` : text === '' ? key : `${text}.${key}`), '');
}
