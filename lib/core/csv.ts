/**
 * CSV text for the files a user opens in a spreadsheet (`summary.csv`, `cases.csv`,
 * `disagreements.csv`, a dashboard table's download): arquero's `toCSV` (cells holding a comma,
 * a quote or a line break quoted, `null` and `undefined` as empty cells), a header alone when
 * there are no rows, and always a final newline.
 *
 * @module
 */
import * as aq from "arquero";

/** One CSV column: its header name and how the cell is read from a row. */
export type CsvColumn<T> = readonly [name: string, read: (row: T) => unknown];

/**
 * CSV text of rows whose keys are the columns, in order.
 *
 * @param header Column names, written alone when `rows` is empty (with rows, their keys in the
 *   first row's order are the header).
 * @param rows One object per row.
 * @returns CSV text ending in a newline.
 *
 * @example Usage
 * ```ts
 * import { csvText } from "./csv.ts";
 * if (csvText(["a", "b"], []) !== "a,b\n") throw new Error();
 * if (csvText(["a"], [{ a: "x,y" }]) !== 'a\n"x,y"\n') throw new Error();
 * ```
 */
export function csvText(
  header: readonly string[],
  rows: readonly Readonly<Record<string, unknown>>[],
): string {
  if (rows.length === 0) return header.join(",") + "\n";
  const csv = aq.from(rows as Record<string, unknown>[]).toCSV();
  return csv.endsWith("\n") ? csv : csv + "\n";
}

/**
 * CSV text of rows read through a column table: one line per row, one cell per column.
 *
 * @param columns The columns, in order.
 * @param rows The rows.
 * @param cell Applied to every value read (e.g. rounding). @default {the value as read}
 * @returns CSV text ending in a newline (the header alone when `rows` is empty).
 *
 * @example Usage
 * ```ts
 * import { columnsCsv } from "./csv.ts";
 * const csv = columnsCsv<number>([["n", (n) => n], ["half", (n) => n / 2]], [1, 4]);
 * if (csv !== "n,half\n1,0.5\n4,2\n") throw new Error(csv);
 * ```
 */
export function columnsCsv<T>(
  columns: readonly CsvColumn<T>[],
  rows: readonly T[],
  cell: (value: unknown) => unknown = (value) => value,
): string {
  return [...columnsCsvChunks(columns, rows, cell)].join("");
}

/** Code units of CSV text per chunk of {@linkcode columnsCsvChunks} (about a write's worth). */
const CHUNK = 1 << 16;

/**
 * {@linkcode columnsCsv} in chunks of whole lines, for a file written as they come (a large
 * table is never held as one text).
 *
 * @param columns The columns, in order.
 * @param rows The rows.
 * @param cell Applied to every value read. @default {the value as read}
 * @returns Chunks whose concatenation is {@linkcode columnsCsv}'s text.
 */
export function* columnsCsvChunks<T>(
  columns: readonly CsvColumn<T>[],
  rows: readonly T[],
  cell: (value: unknown) => unknown = (value) => value,
): Generator<string> {
  const names = columns.map(([name]) => name);
  const asObject = (row: T) =>
    Object.fromEntries(columns.map(([name, read]) => [name, cell(read(row))]));
  // Names an object would reorder or merge (integer-like, repeated, `__proto__`): through
  // arquero with one object per row, as the header is then what arquero makes of them.
  const keys = Object.keys(Object.fromEntries(names.map((n) => [n, 0])));
  if (
    rows.length === 0 || keys.length !== names.length ||
    keys.some((k, i) => k !== names[i] || k === "__proto__")
  ) {
    yield csvText(names, rows.map(asObject));
    return;
  }
  // Written line by line as arquero's toCSV writes them, without a row object or a table.
  let chunk = names.map(cellText).join(",");
  const cells: string[] = new Array(columns.length);
  for (const row of rows) {
    for (let k = 0; k < columns.length; k++) cells[k] = cellText(cell(columns[k][1](row)));
    chunk += "\n" + cells.join(",");
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = "";
    }
  }
  yield chunk + "\n";
}

const NEEDS_QUOTES = /["\n\r,]/;

/** One cell as arquero's `toCSV` writes it (a date through arquero itself). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return aq.from([{ v: value }]).toCSV({ header: false }).slice(0, -1);
  const s = (value as string) + ""; // as arquero: ToPrimitive, then string
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
