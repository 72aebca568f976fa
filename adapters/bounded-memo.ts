/**
 * What a pure computation answered, remembered for the last `max` keys (least recently used
 * dropped first). `compute` runs on a miss; a throw is not remembered; `keep` may refuse a value.
 * For hot paths that repeat a few inputs: opened secrets, operation names, log-key verdicts.
 */
export class BoundedMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly max: number, private readonly keep: (key: string, value: V) => boolean = () => true) {}

  get(key: string, compute: () => V): V {
    if (this.values.has(key)) {
      const hit = this.values.get(key) as V;
      this.values.delete(key);
      this.values.set(key, hit);
      return hit;
    }
    const value = compute();
    if (this.max > 0 && this.keep(key, value)) {
      if (this.values.size >= this.max) this.values.delete(this.values.keys().next().value!);
      this.values.set(key, value);
    }
    return value;
  }
}
