/** Shared argument check of the retrievers (private). @module */

/** @throws {RangeError} when limit is not an integer ≥ 1. */
export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`Cannot search: limit must be an integer >= 1, got ${limit}`);
  }
}
