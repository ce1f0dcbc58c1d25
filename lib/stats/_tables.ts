/**
 * Kept draw tables of the resampling loops (private): the draws of a seeded resampling depend on
 * the seed and the sizes only, and the bench resamples many metrics of many retrievers with the
 * same seeds and sizes, so the tables of the last ones are kept (a cache of a pure function),
 * within a budget of entries.
 *
 * @module
 */

/** A typed array the tables are made of. */
type Table = Uint8Array | Uint16Array;

/** The tables kept under one budget: the least recently used go first when it is exceeded. */
export class KeptTables<T extends Table> {
  readonly #tables = new Map<string, T>();
  #entries = 0;

  /**
   * @param budget Entries kept in all, and the largest table kept.
   */
  constructor(readonly budget: number) {}

  /**
   * The table of `key`, made by `make` when it is not kept (and kept when it fits the budget).
   *
   * @param key Seed and sizes, e.g. `seed/n/resamples`.
   * @param make Makes the table (a pure function of the key).
   * @returns The table; do not write to it.
   */
  get(key: string, make: () => T): T {
    let table = this.#tables.get(key);
    if (table !== undefined) {
      this.#tables.delete(key);
      this.#tables.set(key, table);
      return table;
    }
    table = make();
    if (table.length > this.budget) return table;
    this.#tables.set(key, table);
    this.#entries += table.length;
    for (const [k, t] of this.#tables) {
      if (this.#entries <= this.budget) break;
      this.#tables.delete(k);
      this.#entries -= t.length;
    }
    return table;
  }
}
