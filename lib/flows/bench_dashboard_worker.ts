/**
 * The worker behind {@linkcode workerDashboardRenderer} (`bench_dashboard.ts`): loads the
 * dashboard's modules (linkedom, Observable Plot, arquero) when it starts, then answers each
 * bench report it is sent with {@linkcode renderDashboard}'s page, or with the error's message.
 *
 * @module
 */
import type { BenchReport } from "../report/bench_report.ts";
import { renderDashboard } from "../report/dashboard.ts";

/** A message the worker sends back: the page of the report it was sent, or why it has none. */
export type FromDashboardWorker = { readonly html: string } | { readonly error: string };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<BenchReport>) => void) | null;
  postMessage(message: FromDashboardWorker): void;
};

scope.onmessage = (event) => {
  let reply: FromDashboardWorker;
  try {
    reply = { html: renderDashboard(event.data) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(reply);
};
