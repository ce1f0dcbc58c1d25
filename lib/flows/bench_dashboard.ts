/**
 * The bench's dashboard rendered on a worker thread started with the run, so the dashboard's
 * modules (linkedom, Observable Plot, arquero: about 0.26 s of CPU to load) load on the other
 * core while the bench measures, instead of on the bench's thread. The page is
 * {@linkcode renderDashboard}'s, the same bytes as rendering it in the calling thread.
 *
 * @module
 */
import type { BenchReport } from "../report/bench_report.ts";
import { keepPairedTestTables } from "../stats/mod.ts";
import { isTokenizerName, TOKENIZER_NAMES } from "../tokens/default_tokenizer.ts";
import { hasRankTable, keepRankTable } from "../tokens/piecewise.ts";
import type { TokenizerName } from "../tokens/types.ts";
import type {
  FromDashboardWorker,
  TablesRequest,
  ToDashboardWorker,
} from "./bench_dashboard_worker.ts";

export type { TablesRequest } from "./bench_dashboard_worker.ts";

/** The worker's answer to a report: its page or why it has none. */
type PageReply = Extract<
  FromDashboardWorker,
  { readonly html: string } | { readonly error: string }
>;

/**
 * The report as the dashboard reads it: the retrieval rows without their per-query records,
 * which no part of the page shows and which are most of a bench report (1.50 of 1.58 MB of the
 * default bench's JSON), so the copy sent to the worker is a small one. The page is the same
 * (`bench_dashboard_test.ts` renders both).
 *
 * @param report The report.
 * @returns A shallow copy whose retrieval rows have empty `perQuery`, or `report` without rows.
 */
export function dashboardView(report: BenchReport): BenchReport {
  if (report.retrieval === undefined) return report;
  return { ...report, retrieval: report.retrieval.map((r) => ({ ...r, perQuery: [] })) };
}

/** Renders bench dashboards; `close` ends it (and is safe to call twice). */
export interface DashboardRenderer {
  /**
   * The dashboard page of `report` (UTF-8 HTML, what `renderDashboard(report)` returns).
   *
   * @throws {Error} When rendering fails (the worker's message), or after `close`.
   */
  render(report: BenchReport): Promise<string>;
  /**
   * Renders a draft of the report on the worker and drops the page (no answer, no effect on any
   * page): the first page a worker renders costs about 2.4 times the next (its code compiled,
   * its caches filled), so a draft rendered while the bench finishes leaves the report's own
   * page the cheaper one. Does nothing without a worker or after `close`.
   */
  warm(draft: BenchReport): void;
  /**
   * Has the worker draw these paired tests' tables (`pairedTestTables` in lib/stats), which this
   * thread keeps when they arrive (`keepPairedTestTables`): its paired tests of those seeds and
   * sizes then take them instead of drawing their own, the same bytes. Messages arrive between
   * tasks: yield to the event loop before the tests. Does nothing without a worker.
   */
  drawTables(requests: readonly TablesRequest[]): void;
  /**
   * Settles once the tables asked of {@linkcode DashboardRenderer.drawTables} are kept here, or
   * at once when none are awaited (none asked, no worker, closed).
   */
  tables(): Promise<void>;
  /**
   * Has the worker build the rank tables of these encodings (`buildRankTable` in
   * lib/tokens/piecewise.ts: the tables this thread's counters would build, about 50 ms of CPU
   * each), and keeps them here when they arrive (`keepRankTable`), so the tokenizers made after
   * take them. The worker answers before its dashboard modules have loaded.
   *
   * @param names Encodings, e.g. a `--tokenizers` list (names that are not an encoding's, and
   *   those whose table this thread holds, are left out). @default {TOKENIZER_NAMES}
   * @returns Settles once the tables are kept here, or at once when none is asked or there is
   *   no worker (failed, closed); it never rejects (this thread then builds its own).
   */
  rankTables(names?: readonly string[]): Promise<void>;
  /** Whether pages come from the worker: false once it failed to start or died. */
  readonly inWorker: boolean;
  /** Stops the worker. */
  close(): void;
}

/**
 * Starts a worker that loads the dashboard's modules now and renders each report it is given.
 * When the worker cannot start or dies, `render` renders in the calling thread instead, so the
 * page is written either way. Close it when done (a live worker keeps the process running).
 *
 * @returns The renderer.
 *
 * @example Usage
 * ```ts ignore
 * import { workerDashboardRenderer } from "./bench_dashboard.ts";
 * const dashboard = workerDashboardRenderer();
 * try {
 *   // ... const report = await runBench(...);
 *   // await writeBenchResults(report, "results", io, dashboard.render);
 * } finally {
 *   dashboard.close();
 * }
 * ```
 */
export function workerDashboardRenderer(): DashboardRenderer {
  let closed = false;
  let failed = false;
  const waiting: ((reply: PageReply | undefined) => void)[] = [];
  let worker: Worker | undefined;
  let tablesKept: (() => void) | undefined;
  let tablesWait: Promise<void> = Promise.resolve();
  let rankTablesKept: (() => void) | undefined;
  try {
    worker = new Worker(new URL("./bench_dashboard_worker.ts", import.meta.url), {
      type: "module",
    });
    worker.onmessage = (event: MessageEvent<FromDashboardWorker>) => {
      const data = event.data;
      if ("rankTables" in data) {
        try {
          for (const { name, table } of data.rankTables) keepRankTable(name, table);
        } catch {
          // Not kept: the counters here build their own.
        }
        rankTablesKept?.();
      } else if ("tables" in data) {
        data.tables.forEach(keepPairedTestTables);
        tablesKept?.();
      } else waiting.shift()?.(data);
    };
    // Handled: an unhandled worker error would end this process. Whoever waits renders here.
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      failed = true;
      tablesKept?.();
      rankTablesKept?.();
      for (const resolve of waiting.splice(0)) resolve(undefined);
    };
  } catch {
    failed = true;
  }
  const inThread = async (report: BenchReport) =>
    (await import("../report/dashboard.ts")).renderDashboard(report);
  return {
    async render(report) {
      if (closed) throw new Error("Cannot render the dashboard as its renderer is closed");
      if (failed || worker === undefined) return await inThread(report);
      const reply = await new Promise<PageReply | undefined>((resolve) => {
        waiting.push(resolve);
        worker!.postMessage(dashboardView(report) satisfies ToDashboardWorker);
      });
      if (reply === undefined) return await inThread(report);
      if ("error" in reply) throw new Error(`dashboard: ${reply.error}`);
      return reply.html;
    },
    warm(draft) {
      if (closed || failed || worker === undefined) return;
      worker.postMessage({ warm: dashboardView(draft) } satisfies ToDashboardWorker);
    },
    drawTables(requests) {
      if (closed || failed || worker === undefined || requests.length === 0) return;
      tablesWait = new Promise((resolve) => tablesKept = resolve);
      worker.postMessage({ tables: requests } satisfies ToDashboardWorker);
    },
    tables: () => tablesWait,
    rankTables(names = TOKENIZER_NAMES) {
      const asked = [...new Set(names)].filter((n): n is TokenizerName =>
        isTokenizerName(n) && !hasRankTable(n)
      );
      if (closed || failed || worker === undefined || asked.length === 0) return Promise.resolve();
      const kept = new Promise<void>((resolve) => rankTablesKept = resolve);
      worker.postMessage({ rankTables: asked } satisfies ToDashboardWorker);
      return kept;
    },
    get inWorker() {
      return !failed && worker !== undefined;
    },
    close() {
      closed = true;
      tablesKept?.();
      rankTablesKept?.();
      worker?.terminate();
      for (const resolve of waiting.splice(0)) resolve(undefined);
    },
  };
}
