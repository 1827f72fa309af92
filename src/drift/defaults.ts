import { isMap, Json, JsonMap, setAt, valueAt } from './json';
import { groupOf } from '../core/kinds';

/**
 * Defaults the API server gives fields that a three-way merge deleted (they were in last-applied and
 * left Git). Only the fields that matter to the incidents this library prevents are modelled; any other
 * deleted field is shown as absent.
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/
 */
const DEFAULTS: Record<string, Record<string, Json>> = {
  'apps/Deployment': { '/spec/replicas': 1, '/spec/revisionHistoryLimit': 10, '/spec/progressDeadlineSeconds': 600 },
  'apps/StatefulSet': { '/spec/replicas': 1, '/spec/revisionHistoryLimit': 10, '/spec/podManagementPolicy': 'OrderedReady' },
  'apps/ReplicaSet': { '/spec/replicas': 1 },
  'argoproj.io/Rollout': { '/spec/replicas': 1 },
  'autoscaling/HorizontalPodAutoscaler': { '/spec/minReplicas': 1 },
  'batch/Job': { '/spec/backoffLimit': 6 },
  '/Service': { '/spec/type': 'ClusterIP', '/spec/sessionAffinity': 'None' },
};

/** Puts back the API server's default for every deleted field that has one. */
export function applyDeletionDefaults(obj: Json, deleted: readonly string[][]): Json {
  if (!isMap(obj)) {
    return obj;
  }
  const table = DEFAULTS[`${groupOf(String(obj.apiVersion ?? ''))}/${String(obj.kind ?? '')}`] ?? {};
  for (const keys of deleted) {
    const pointer = `/${keys.join('/')}`;
    if (pointer in table && valueAt(obj, keys) === undefined) {
      setAt(obj as JsonMap, keys, table[pointer]);
    }
  }
  return obj;
}

/** Gives every modelled field that is absent its API default, as the API server does on create. */
export function applyDeletionDefaultsForAbsent(obj: Json): Json {
  if (!isMap(obj)) {
    return obj;
  }
  const table = DEFAULTS[`${groupOf(String(obj.apiVersion ?? ''))}/${String(obj.kind ?? '')}`] ?? {};
  return applyDeletionDefaults(obj, Object.keys(table).map((p) => p.slice(1).split('/')));
}
