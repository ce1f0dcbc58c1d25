/**
 * The worker behind {@linkcode workerDashboardRenderer} (`bench_dashboard.ts`): loads the
 * dashboard's modules (linkedom, Observable Plot, arquero) when it starts, then answers each
 * bench report it is sent with {@linkcode renderDashboard}'s page, or with the error's message.
 * A draft (`{ warm: report }`) is rendered and dropped, unanswered: the page's code is then
 * compiled and its caches filled before the report it answers arrives.
 *
 * @module
 */
import type { BenchReport } from "../report/bench_report.ts";
import { renderDashboard } from "../report/dashboard.ts";

/** A message the worker sends back: the page of the report it was sent, or why it has none. */
export type FromDashboardWorker = { readonly html: string } | { readonly error: string };

/** A message the worker is sent: a report to answer with its page, or a draft to warm up on. */
export type ToDashboardWorker = BenchReport | { readonly warm: BenchReport };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ToDashboardWorker>) => void) | null;
  postMessage(message: FromDashboardWorker): void;
};

scope.onmessage = (event) => {
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
