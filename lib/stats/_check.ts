/** Shared input checks for the stats module (private). @module */

/** @throws {RangeError} when values is empty or holds a non-finite number. */
export function checkValues(values: readonly number[], what: string): void {
  if (values.length === 0) throw new RangeError(`Cannot ${what}: no values`);
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      throw new RangeError(`Cannot ${what}: value #${i} is ${values[i]}, not a finite number`);
    }
  }
}
