/**
 * The best documents of one search, kept as numbers while the scores come (private): the
 * retrievers that score documents by number (bm25, tfidf_classic) keep their first `k` in the
 * order {@linkcode compareHits} sorts hits (score descending, then id ascending by code units),
 * without a hit object for every document scored.
 *
 * @module
 */
import type { Hit } from "./types.ts";

/** The best `capacity` documents offered so far, by (score, id) as `compareHits` orders them. */
export class TopHits {
  readonly #ids: readonly string[];
  readonly #docs: Int32Array;
  readonly #scores: Float64Array;
  #kept = 0;

  /**
   * @param ids Document ids by number.
   * @param capacity How many to keep (an integer ≥ 0; e.g. the search's limit, at most the
   *   documents it scores).
   */
  constructor(ids: readonly string[], capacity: number) {
    this.#ids = ids;
    this.#docs = new Int32Array(capacity);
    this.#scores = new Float64Array(capacity);
  }

  /** Whether document `d` scored `score` sorts before the kept entry at `i`. */
  #before(d: number, score: number, i: number): boolean {
    const s = this.#scores[i];
    return score > s || (score === s && this.#ids[d] < this.#ids[this.#docs[i]]);
  }

  /**
   * Offers document `d` with its score: kept when it is among the best so far.
   *
   * @param d Document number (offered once per search).
   * @param score Its score.
   */
  offer(d: number, score: number): void {
    const docs = this.#docs;
    const scores = this.#scores;
    let kept = this.#kept;
    if (kept === docs.length) {
      if (kept === 0 || !this.#before(d, score, kept - 1)) return;
      kept--;
    }
    // Insert before the first kept document it ranks above.
    let at = kept;
    while (at > 0 && this.#before(d, score, at - 1)) {
      docs[at] = docs[at - 1];
      scores[at] = scores[at - 1];
      at--;
    }
    docs[at] = d;
    scores[at] = score;
    this.#kept = kept + 1;
  }

  /** @returns The kept documents as hits, best first. */
  hits(): Hit[] {
    const out: Hit[] = new Array(this.#kept);
    for (let i = 0; i < this.#kept; i++) {
      out[i] = { id: this.#ids[this.#docs[i]], score: this.#scores[i] };
    }
    return out;
  }
}
