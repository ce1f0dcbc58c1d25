/**
 * Normalization of captured text that changes from run to run, so that the
 * same servers give the same corpus bytes on every capture.
 *
 * Two rules, applied to every string inside a record's tools, prompts,
 * resources, message, stderr tail and warnings (keys are left alone):
 *
 * - `run-path`: an absolute path that exists only for this run (the throwaway
 *   HOME, the scratch folder, TMPDIR, the install folder) is replaced by its
 *   placeholder, longest path first, e.g.
 *   `/tmp/mcpmeter-figma-1f2e/work` becomes `<scratch>` (figma-developer-mcp
 *   puts its cwd in a tool description).
 * - `capture-time`: a string whose whole value is an ISO-8601 date
 *   (`2026-10-31`) or date-time (`2026-11-30T00:09:46.123Z`) falling in the
 *   capture window (from `lookbackDays` before the capture started to one day
 *   after it ended) is replaced by `<capture-date>` / `<capture-time>`, with
 *   the whole-day offset from the capture start when there is one:
 *   `<capture-date-30d>` means "30 days before the capture" (@currents/mcp
 *   puts `now` and `now - 30 days` in schema defaults). Dates inside longer
 *   text (examples in prose) are left alone.
 *
 * Every replacement is reported as a {@linkcode Normalization}, so the
 * manifest can say exactly what was changed and where.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../catalog/types.ts";
import type { RunPath, ServerCaptureRecord } from "./types.ts";

/** The rule ids and what each does (copied into the manifest). */
export const NORMALIZATION_RULES: Readonly<Record<NormalizationRule, string>> = {
  "run-path":
    "absolute paths that exist only for one run (throwaway HOME, scratch folder, TMPDIR, install folder) are replaced by <home>, <scratch>, <tmpdir>, <run>, <install>, longest path first",
  "capture-time":
    "a string that is entirely an ISO-8601 date or date-time inside the capture window is replaced by <capture-date> or <capture-time>, suffixed -Nd / +Nd for a whole-day offset from the capture start",
};

/** Id of a normalization rule. */
export type NormalizationRule = "run-path" | "capture-time";

/** Days before the capture start that still count as "capture time" by default. */
export const DEFAULT_LOOKBACK_DAYS = 400;

const DAY_MS = 86_400_000;

/** Options of {@linkcode normalizeRecord}. */
export interface NormalizeOptions {
  /** Run-specific paths and placeholders (in addition to the record's own `runPaths`). */
  readonly paths?: readonly RunPath[];
  /**
   * The capture window in epoch ms (`fromMs` = capture start, `toMs` = end).
   * Without it the `capture-time` rule is off.
   */
  readonly window?: { readonly fromMs: number; readonly toMs: number };
  /** Days before `fromMs` that still count (default {@linkcode DEFAULT_LOOKBACK_DAYS}). */
  readonly lookbackDays?: number;
}

/** One normalized location. */
export interface Normalization {
  /** Server (config key). */
  readonly server: string;
  /**
   * Where, as a dotted path inside the record; tools and prompts are
   * addressed by name, e.g. `tools[get-tests].inputSchema.properties.from.default`.
   */
  readonly location: string;
  /** The rule that made the replacement. */
  readonly rule: NormalizationRule;
  /** Replacement made, e.g. `<capture-date-30d>` or `<scratch>`. */
  readonly placeholder: string;
}

/**
 * Applies the normalization rules to one record.
 *
 * @param record A capture record.
 * @param options Extra run paths; the capture window (epoch ms) for timestamps.
 * @returns The normalized record (a copy; the input is not modified) and the
 *   list of replacements, in document order.
 *
 * @example
 * ```ts
 * import { normalizeRecord } from "./volatile_text.ts";
 * const { record, changes } = normalizeRecord({
 *   server: "s", transport: "stdio", outcome: "ok", warnings: [], pages: {}, captureMs: 1,
 *   runPaths: [{ path: "/tmp/r1/work", placeholder: "<scratch>" }],
 *   tools: [{ name: "t", description: "saves to /tmp/r1/work/img", inputSchema: {
 *     type: "object", properties: { from: { type: "string", default: "2026-10-31" } } } }],
 * }, { window: { fromMs: Date.UTC(2026, 10, 30, 0, 9), toMs: Date.UTC(2026, 10, 30, 0, 10) } });
 * const tool = record.tools[0] as any;
 * if (tool.description !== "saves to <scratch>/img") throw new Error(tool.description);
 * if (tool.inputSchema.properties.from.default !== "<capture-date-30d>") throw new Error();
 * if (changes.length !== 2) throw new Error();
 * ```
 */
export function normalizeRecord(
  record: ServerCaptureRecord,
  options: NormalizeOptions = {},
): { record: ServerCaptureRecord; changes: Normalization[] } {
  const paths = [...record.runPaths, ...(options.paths ?? [])]
    .filter((p) => p.path.length > 1)
    .sort((a, b) => b.path.length - a.path.length || (a.path < b.path ? -1 : 1));
  const changes: Normalization[] = [];
  const lookback = (options.lookbackDays ?? DEFAULT_LOOKBACK_DAYS) * DAY_MS;
  const fix = (text: string, location: string): string => {
    let out = text;
    for (const { path, placeholder } of paths) {
      if (out.includes(path)) {
        out = out.split(path).join(placeholder);
        changes.push({ server: record.server, location, rule: "run-path", placeholder });
      }
    }
    if (options.window !== undefined) {
      const stamp = captureTimePlaceholder(out, options.window, lookback);
      if (stamp !== undefined) {
        changes.push({ server: record.server, location, rule: "capture-time", placeholder: stamp });
        out = stamp;
      }
    }
    return out;
  };
  // A copy made with a work list (any depth) into plain objects, an own "__proto__" key kept by
  // defineProperty: a null-prototype copy of a schema thousands of levels deep made
  // JSON.stringify take its recursive path and overflow the stack.
  const walk = (root: JsonValue, rootLocation: string): JsonValue => {
    let result: JsonValue = null;
    const todo: [JsonValue, string, (v: JsonValue) => void][] = [[root, rootLocation, (v) => {
      result = v;
    }]];
    const set = (o: Record<string, JsonValue>, k: string, v: JsonValue) =>
      Object.defineProperty(o, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    while (todo.length > 0) {
      const [value, location, put] = todo.pop()!;
      if (typeof value === "string") put(fix(value, location));
      else if (Array.isArray(value)) {
        const out: JsonValue[] = value.map(() => null);
        put(out);
        // Pushed last first, so they are visited (and changes listed) in document order.
        for (let i = value.length - 1; i >= 0; i--) {
          todo.push([value[i], `${location}[${i}]`, (v) => out[i] = v]);
        }
      } else if (typeof value === "object" && value !== null) {
        const out: Record<string, JsonValue> = {};
        put(out);
        const entries = Object.entries(value);
        for (const [k] of entries) set(out, k, null);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [k, v] = entries[i];
          todo.push([v, `${location}.${k}`, (x) => set(out, k, x)]);
        }
      } else put(value);
    }
    return result;
  };
  const items = (list: readonly JsonObject[], field: string, key: string) =>
    list.map((item, i) => {
      const id = typeof item[key] === "string" ? item[key] as string : String(i);
      return walk(item, `${field}[${id}]`) as JsonObject;
    });
  const out: ServerCaptureRecord = {
    ...record,
    tools: items(record.tools, "tools", "name"),
    ...(record.prompts === undefined ? {} : { prompts: items(record.prompts, "prompts", "name") }),
    ...(record.resources === undefined
      ? {}
      : { resources: items(record.resources, "resources", "uri") }),
    ...(record.message === undefined ? {} : { message: fix(record.message, "message") }),
    ...(record.stderrTail === undefined
      ? {}
      : { stderrTail: fix(record.stderrTail, "stderrTail") }),
    warnings: record.warnings.map((w, i) => fix(w, `warnings[${i}]`)),
  };
  return { record: out, changes };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

function captureTimePlaceholder(
  text: string,
  window: { readonly fromMs: number; readonly toMs: number },
  lookbackMs: number,
): string | undefined {
  const isDate = DATE.test(text);
  if (!isDate && !DATE_TIME.test(text)) return undefined;
  const ms = Date.parse(isDate ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms)) return undefined;
  if (isDate) {
    const startDay = Math.floor(window.fromMs / DAY_MS) * DAY_MS;
    const endDay = Math.floor(window.toMs / DAY_MS) * DAY_MS;
    if (ms < startDay - lookbackMs || ms > endDay + DAY_MS) return undefined;
    return `<capture-date${offset(Math.round((ms - startDay) / DAY_MS))}>`;
  }
  if (ms < window.fromMs - lookbackMs || ms > window.toMs + DAY_MS) return undefined;
  const days = ms >= window.fromMs && ms <= window.toMs
    ? 0
    : Math.round((ms - window.fromMs) / DAY_MS);
  return `<capture-time${offset(days)}>`;
}

function offset(days: number): string {
  if (days === 0) return "";
  return days > 0 ? `+${days}d` : `${days}d`;
}
