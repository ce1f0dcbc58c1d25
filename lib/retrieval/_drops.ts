/** Drop accounting shared by the golden-set parsers and alignment (private). @module */

import type { Drops } from "./types.ts";

/** Collects problems; in strict mode they become one error, otherwise counted drops. */
export class DropLog {
  readonly problems: string[] = [];
  readonly #reasons = new Map<string, number>();

  /** Record one dropped item with its reason key and a detail sentence. */
  add(reason: string, detail: string): void {
    this.problems.push(detail);
    this.#reasons.set(reason, (this.#reasons.get(reason) ?? 0) + 1);
  }

  /** The drops so far, reasons sorted by key. */
  toDrops(base?: Drops): Drops {
    const reasons: Record<string, number> = { ...(base?.reasons ?? {}) };
    for (const [k, v] of this.#reasons) reasons[k] = (reasons[k] ?? 0) + v;
    const sorted: Record<string, number> = {};
    for (const k of Object.keys(reasons).sort()) sorted[k] = reasons[k];
    return {
      count: (base?.count ?? 0) + this.problems.length,
      reasons: sorted,
      examples: [...(base?.examples ?? []), ...this.problems].slice(0, 20),
    };
  }
}
