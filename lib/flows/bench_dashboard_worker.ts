/**
 * The worker behind {@linkcode workerDashboardRenderer} (`bench_dashboard.ts`): loads the
 * dashboard's modules (linkedom, Observable Plot, arquero) as it starts, then answers each
 * bench report it is sent with {@linkcode renderDashboard}'s page, or with the error's message.
 * A draft (`{ warm: report }`) is rendered and dropped, unanswered: the page's code is then
 * compiled and its caches filled before the report it answers arrives. Asked for paired-test
 * tables (`{ tables: [...] }`), it draws them ({@linkcode pairedTestTables}) and sends them
 * back, their buffers transferred, so the bench's thread need not draw them itself; asked for
 * rank tables (`{ rankTables: [...] }`), it builds them ({@linkcode buildRankTable}) and sends
 * them back the same way. Both are answered at once, before the dashboard's modules have loaded
 * (they are imported once the first message is answered, so this module's own graph is small
 * and its first message is taken as soon as the worker runs); pages wait for them, in the order
 * asked.
 *
 * @module
 */
import type { BenchReport } from "../report/bench_report.ts";
import type { renderDashboard } from "../report/dashboard.ts";
import { type PairedTestTables, pairedTestTables } from "../stats/mod.ts";
import { buildRankTable } from "../tokens/piecewise.ts";
import type { RankTable } from "../tokens/_bpe.ts";
import type { TokenizerName } from "../tokens/types.ts";

/** A message the worker sends back: the page of the report it was sent, or why it has none. */
export type FromDashboardWorker =
  | { readonly html: string }
  | { readonly error: string }
  | { readonly tables: readonly PairedTestTables[] }
  | { readonly rankTables: readonly { readonly name: TokenizerName; readonly table: RankTable }[] };

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
  | { readonly tables: readonly TablesRequest[] }
  | { readonly rankTables: readonly TokenizerName[] };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ToDashboardWorker>) => void) | null;
  postMessage(message: FromDashboardWorker, transfer?: Transferable[]): void;
};

// Imported after the first message is answered (or 50 ms after this module ran, if none came):
// a worker takes no message while an import begun as its module ran is loading, and the rank
// tables asked for at once are wanted before the dashboard's modules.
let dashboard: Promise<typeof renderDashboard> | undefined;
function loadDashboard(): Promise<typeof renderDashboard> {
  if (dashboard === undefined) {
    dashboard = import("../report/dashboard.ts").then((m) => m.renderDashboard);
    // A failed import is the render's error, said when a page is asked; never unhandled.
    dashboard.catch(() => {});
  }
  return dashboard;
}
setTimeout(loadDashboard, 50);

/** The buffers of a rank table's typed arrays, for a transfer. */
function rankTableBuffers(table: RankTable): ArrayBuffer[] {
  const { slots, bytes, starts, pairs, pairBits, filter } = table;
  return [slots, bytes, starts, pairs, pairBits, filter].map((a) => a.buffer as ArrayBuffer);
}

scope.onmessage = (event) => {
  const data = event.data;
  if ("rankTables" in data) {
    const rankTables = data.rankTables.map((name) => ({ name, table: buildRankTable(name) }));
    scope.postMessage({ rankTables }, rankTables.flatMap((t) => rankTableBuffers(t.table)));
    loadDashboard();
    return;
  }
  if ("tables" in data) {
    const tables = data.tables.flatMap((t) => {
      const drawn = pairedTestTables(t.seed, t.n, t.resamples);
      return drawn === undefined ? [] : [drawn];
    });
    scope.postMessage({ tables }, tables.flatMap((t) => [t.signs.buffer, t.indices.buffer]));
    loadDashboard();
    return;
  }
  if ("warm" in data) {
    loadDashboard().then((render) => render(data.warm)).catch(() => {
      // A draft's page is dropped, and so is its failure: the report's own render says it.
    });
    return;
  }
  loadDashboard().then((render) => ({ html: render(data) })).catch((error) => ({
    error: error instanceof Error ? error.message : String(error),
  })).then((reply: FromDashboardWorker) => scope.postMessage(reply));
};
