/** Plain JSON values, as a cluster returns them and YAML parses them. */
export type Json = null | boolean | number | string | Json[] | JsonMap;
export type JsonMap = { [key: string]: Json };

export function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Captured once: input is data, and nothing it holds may change how keys are looked up.
const hasOwnProperty = Object.prototype.hasOwnProperty;
const defineProperty = Object.defineProperty;

/**
 * Whether `key` is one of the map's own keys. Input objects are data: `__proto__`, `constructor` or
 * `toString` is a key like any other, and a key the map does not hold is never found on its prototype.
 */
export function hasOwn(map: object, key: string): boolean {
  return hasOwnProperty.call(map, key);
}

/** The map's own value at `key`, or undefined: never an inherited property such as `__proto__`. */
export function own(map: JsonMap, key: string): Json | undefined {
  return hasOwnProperty.call(map, key) ? map[key] : undefined;
}

/** Sets the map's own `key` as a plain data property: `__proto__` becomes a key, never the prototype. */
export function put(map: JsonMap, key: string, value: Json): void {
  defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

export function clone<T extends Json | undefined>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The value at an RFC 6901 pointer (unescaped keys), or undefined. */
export function valueAt(value: Json | undefined, keys: readonly string[]): Json | undefined {
  let current: Json | undefined = value;
  for (const key of keys) {
    if (Array.isArray(current)) {
      current = /^\d+$/.test(key) ? current[Number(key)] : undefined;
    } else if (isMap(current)) {
      current = own(current, key);
    } else {
      return undefined;
    }
  }
  return current;
}

/** Removes the value at a key path in place; a missing path is left alone, as Argo CD does. */
export function removeAt(value: Json, keys: readonly string[]): boolean {
  if (keys.length === 0) {
    return false;
  }
  const parent = valueAt(value, keys.slice(0, -1));
  const last = keys[keys.length - 1];
  if (Array.isArray(parent) && /^\d+$/.test(last) && Number(last) < parent.length) {
    parent.splice(Number(last), 1);
    return true;
  }
  if (isMap(parent) && hasOwn(parent, last)) {
    delete parent[last];
    return true;
  }
  return false;
}

/** Sets a value at a key path in place, creating maps on the way; numeric keys index into existing lists. */
export function setAt(value: JsonMap, keys: readonly string[], v: Json): void {
  let current: Json = value;
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    if (Array.isArray(current) && /^\d+$/.test(key)) {
      const index = Number(key);
      if (last) {
        current[index] = v;
      } else {
        if (!isMap(current[index]) && !Array.isArray(current[index])) {
          current[index] = {};
        }
        current = current[index];
      }
      return;
    }
    const map = current as JsonMap;
    if (last) {
      put(map, key, v);
    } else {
      let child = own(map, key);
      if (!isMap(child) && !Array.isArray(child)) {
        child = {};
        put(map, key, child);
      }
      current = child;
    }
  });
}
