import { ApiObject } from 'cdk8s';

/**
 * File names `<Kind>.<name><ext>`; when two objects would share one, the namespace and then the API
 * group are added, so no object overwrites another. `render` gives an object's manifest (a synth passes
 * the one it already rendered for validation).
 */
export function nameFiles(objects: ApiObject[], extension: string,
  render: (o: ApiObject) => Record<string, any> = (o) => o.toJson()): [string, Record<string, unknown>][] {
  const manifests = objects.map(render);
  const clean = (s: string) => s.replace(/[^0-9a-zA-Z_.-]/g, '');
  const candidates = (m: Record<string, any>): string[] => {
    const kind = clean(String(m.kind));
    // A hook with generateName has no name: its prefix names the file.
    const name = clean(String(m.metadata?.name ?? String(m.metadata?.generateName ?? '').replace(/-+$/, '')));
    const ns = clean(String(m.metadata?.namespace ?? 'cluster'));
    const group = clean(String(m.apiVersion).split('/').slice(0, -1).join('.') || 'core');
    return [`${kind}.${name}`, `${kind}.${ns}.${name}`, `${kind}.${group}.${ns}.${name}`];
  };
  const counts = new Map<string, number>();
  for (const m of manifests) {
    const first = candidates(m)[0];
    counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  const used = new Set<string>();
  return manifests.map((m, i) => {
    const options = candidates(m);
    let name = counts.get(options[0])! > 1 ? options[1] : options[0];
    if (used.has(name)) {
      name = options[2];
    }
    let n = 2;
    const base = name;
    while (used.has(name)) {
      name = `${base}.${n++}`;
    }
    used.add(name);
    return [`${name}${extension}`, manifests[i]];
  });
}

