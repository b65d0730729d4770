/**
 * Caches a derived value per input object, so a selector that builds an array returns the same array
 * for the same report (zustand compares selector results by reference; a fresh array every call
 * would re-render forever). The cache is weak: a closed comparison is collected.
 */
export function memoByRef<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    if (cache.has(key)) return cache.get(key)!;
    const value = derive(key);
    cache.set(key, value);
    return value;
  };
}
