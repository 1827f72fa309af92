import { clone, isMap, Json, JsonMap, own, put } from './json';
import { TRACKING_ID_ANNOTATION } from '../core/annotations';
import { groupOf } from '../core/kinds';


/** How Argo CD marks the resources of an Application: `none` when the model leaves tracking out. */
export type Tracking = 'annotation' | 'label' | 'annotation+label' | 'none';

export interface TrackingOptions {
  readonly method: Tracking;
  /** The instance label key (`application.instanceLabelKey` in argocd-cm). */
  readonly labelKey: string;
}

function metadataOf(obj: JsonMap): JsonMap {
  const metadata = own(obj, 'metadata');
  if (isMap(metadata)) {
    return metadata;
  }
  const created: JsonMap = {};
  put(obj, 'metadata', created);
  return created;
}

function mapAt(metadata: JsonMap, key: string): JsonMap {
  const value = own(metadata, key);
  if (isMap(value)) {
    return value;
  }
  const created: JsonMap = {};
  put(metadata, key, created);
  return created;
}

/** Whether the object carries Argo CD's tracking annotation or instance label. */
export function hasTrackingMetadata(obj: Json | undefined, labelKey: string): boolean {
  const metadata = isMap(obj) ? own(obj, 'metadata') : undefined;
  if (!isMap(metadata)) {
    return false;
  }
  const annotations = own(metadata, 'annotations');
  const labels = own(metadata, 'labels');
  return (isMap(annotations) && typeof own(annotations, TRACKING_ID_ANNOTATION) === 'string')
    || (isMap(labels) && typeof own(labels, labelKey) === 'string');
}

/**
 * The target as the controller compares it: with its tracking metadata (util/argo/resource_tracking.go,
 * SetAppInstance). The annotation is `<app>:<group>/<kind>:<namespace>/<name>`, the namespace being the
 * object's or else the destination's; the label is the app name (cut to 63 characters when both are written).
 * Returns a copy.
 */
export function stampTracking(desired: Json, app: string, destinationNamespace: string, tracking: TrackingOptions): Json {
  const copy = clone(desired);
  if (!isMap(copy) || tracking.method === 'none') {
    return copy;
  }
  const metadata = metadataOf(copy);
  if (tracking.method !== 'label') {
    const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : destinationNamespace;
    const value = `${app}:${groupOf(String(copy.apiVersion ?? ''))}/${String(copy.kind ?? '')}:${namespace}/${String(metadata.name ?? '')}`;
    put(mapAt(metadata, 'annotations'), TRACKING_ID_ANNOTATION, value);
  }
  if (tracking.method !== 'annotation') {
    put(mapAt(metadata, 'labels'), tracking.labelKey, tracking.method === 'label' ? app : app.slice(0, 63).replace(/[-_.]+$/, ''));
  }
  return copy;
}

/**
 * With an annotation method, a live object still carrying the instance label (tracked by label before) is
 * read as tracked by annotation: it gets the target's annotation if it has none, and loses the label if the
 * target has none (util/argo/resource_tracking.go, Normalize). Changes `live` in place.
 */
export function normalizeTracking(config: Json, live: Json, tracking: TrackingOptions): void {
  if (tracking.method === 'label' || tracking.method === 'none' || !isMap(live) || !isMap(config)) {
    return;
  }
  const liveMetadata = metadataOf(live);
  const liveLabels = own(liveMetadata, 'labels');
  if (!isMap(liveLabels) || typeof own(liveLabels, tracking.labelKey) !== 'string' || String(live.kind) === 'CustomResourceDefinition') {
    return;
  }
  const configMetadata = isMap(own(config, 'metadata')) ? config.metadata as JsonMap : {};
  const liveAnnotations = own(liveMetadata, 'annotations');
  if (!isMap(liveAnnotations) || typeof own(liveAnnotations, TRACKING_ID_ANNOTATION) !== 'string' || liveAnnotations[TRACKING_ID_ANNOTATION] === '') {
    const configAnnotations = own(configMetadata, 'annotations');
    const value = isMap(configAnnotations) ? own(configAnnotations, TRACKING_ID_ANNOTATION) : undefined;
    put(mapAt(liveMetadata, 'annotations'), TRACKING_ID_ANNOTATION, typeof value === 'string' ? value : '');
  }
  const configLabels = own(configMetadata, 'labels');
  if (!isMap(configLabels) || !own(configLabels, tracking.labelKey)) {
    delete liveLabels[tracking.labelKey];
    if (Object.keys(liveLabels).length === 0) {
      delete liveMetadata.labels;
    }
  }
}
