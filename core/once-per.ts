/** The value made for `key` the first time it was asked for, kept in `made` (a WeakMap: it goes with the key). */
export function oncePer<K extends object, V>(made: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  let value = made.get(key);
  if (value === undefined) {
    value = make(key);
    made.set(key, value);
  }
  return value;
}
