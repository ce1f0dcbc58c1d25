/**
 * The worker behind {@linkcode workerDashboardRenderer} (`bench_dashboard.ts`): loads the
 * dashboard's modules (linkedom, Observable Plot, arquero) when it starts, then answers each
 * bench report it is sent with {@linkcode renderDashboard}'s page, or with the error's message.
 * A draft (`{ warm: report }`) is rendered and dropped, unanswered: the page's code is then
 * compiled and its caches filled before the report it answers arrives. Asked for paired-test
 * tables (`{ tables: [...] }`), it draws them ({@linkcode pairedTestTables}) and sends them
 * back, their buffers transferred, so the bench's thread need not draw them itself.
 *
 * @module
 */
import type { BenchReport } from "../report/bench_report.ts";
import { renderDashboard } from "../report/dashboard.ts";
import { type PairedTestTables, pairedTestTables } from "../stats/mod.ts";

/** A message the worker sends back: the page of the report it was sent, or why it has none. */
export type FromDashboardWorker =
  | { readonly html: string }
  | { readonly error: string }
  | { readonly tables: readonly PairedTestTables[] };

/** The seed and sizes of one paired test's tables. */
export interface TablesRequest {
  /** The test's seed. */
  readonly seed: number;
  /** Paired items. */
  readonly n: number;
  /** Permutations and resamples. */
  readonly resamples: number;
}

/** A message the worker is sent: a report to answer with its page, or a draft to warm up on. */
export type ToDashboardWorker =
  | BenchReport
  | { readonly warm: BenchReport }
  | { readonly tables: readonly TablesRequest[] };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ToDashboardWorker>) => void) | null;
  postMessage(message: FromDashboardWorker, transfer?: Transferable[]): void;
};

scope.onmessage = (event) => {
  if ("tables" in event.data) {
    const tables = event.data.tables.flatMap((t) => {
      const drawn = pairedTestTables(t.seed, t.n, t.resamples);
      return drawn === undefined ? [] : [drawn];
    });
    scope.postMessage({ tables }, tables.flatMap((t) => [t.signs.buffer, t.indices.buffer]));
    return;
  }
  if ("warm" in event.data) {
    try {
      renderDashboard(event.data.warm);
    } catch {
      // A draft's page is dropped, and so is its failure: the report's own render says it.
    }
    return;
  }
  let reply: FromDashboardWorker;
  try {
    reply = { html: renderDashboard(event.data) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(reply);
};
