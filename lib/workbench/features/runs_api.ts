/**
 * Runs API: start, list, detail, summary, live events (Server-Sent Events tailing the
 * `cases.jsonl` the runner appends), resume, and one case with its transcript.
 *
 * @module
 */

import { join } from "node:path";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { CaseRecord } from "../../agent/types.ts";
import type { WorkbenchContext, WorkbenchFeature } from "../app.ts";
import { readRest } from "../../core/files.ts";
import { WorkbenchError } from "../_paths.ts";
import { readJsonBody } from "../http.ts";
import { resumeRun, startRun } from "../start_run.ts";
import { summarizeRun } from "../comparison.ts";
import { progressOf, type RunState } from "../run_store.ts";
import { parseCaseLines, RunInputError } from "../../agent/io.ts";
import type { Suite } from "../../agent/types.ts";

/** A finished case as the event stream sends it (no answer text, no arguments). */
export interface CaseEvent {
  /** Agent id. */
  readonly agentId: string;
  /** Case id. */
  readonly caseId: string;
  /** 0-based repetition. */
  readonly repetition: number;
  /** Verdict (`null`: infrastructure error). */
  readonly passed: boolean | null;
  /** Error kind, if any. */
  readonly error: string | null;
  /** The error's cause as recorded (already redacted), if any. */
  readonly errorMessage: string | null;
  /** Wall time, ms. */
  readonly wallMs: number;
  /** Input tokens. */
  readonly inputTokens: number | null;
  /** Output tokens. */
  readonly outputTokens: number | null;
  /** Agent cost, USD. */
  readonly costUsd: number | null;
  /** Tool calls made. */
  readonly toolCalls: number;
}

/**
 * The stream form of a case record.
 *
 * @param r Case record.
 * @returns The event payload.
 */
export function caseEvent(r: CaseRecord): CaseEvent {
  return {
    agentId: r.agentId,
    caseId: r.caseId,
    repetition: r.repetition,
    passed: r.passed,
    error: r.error?.kind ?? null,
    errorMessage: r.error?.message ?? null,
    wallMs: r.wallMs,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    costUsd: r.costUsd,
    toolCalls: r.toolCalls.filter((c) => c.via === undefined).length,
  };
}

/** Reads a file from a byte offset to its end (`""` when missing). */
async function readFrom(path: string, offset: number): Promise<Uint8Array> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return new Uint8Array();
    throw e;
  }
  try {
    await file.seek(offset, Deno.SeekMode.Start);
    return await readRest(file);
  } finally {
    file.close();
  }
}

const TERMINAL: ReadonlySet<RunState> = new Set(["completed", "failed", "interrupted"]);

/** Poll interval of the event stream when nothing signals a change, ms. */
export const EVENTS_POLL_MS = 500;

function eventsRoute(ctx: WorkbenchContext) {
  return async (c: Context) => {
    const runId = c.req.param("id")!;
    const skip = Number(c.req.header("last-event-id") ?? "0") || 0;
    const first = await ctx.runs.get(runId);
    return streamSSE(c, async (stream) => {
      const path = join((await ctx.runs.locate(runId)).dir, "cases.jsonl");
      let offset = 0;
      let lines = 0;
      let seen = 0;
      const all: CaseRecord[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = ctx.queue.subscribe((id) => {
        if (id === runId) wake?.();
      });
      const abort = new AbortController();
      stream.onAbort(() => {
        abort.abort();
        wake?.();
      });
      let planned = first.planned;
      let lastProgress = "";
      try {
        while (!abort.signal.aborted) {
          const bytes = await readFrom(path, offset);
          const end = bytes.lastIndexOf(0x0a) + 1;
          if (end > 0) {
            const text = new TextDecoder().decode(bytes.subarray(0, end));
            let records: CaseRecord[];
            try {
              records = parseCaseLines(text, path, lines + 1);
            } catch (e) {
              if (!(e instanceof RunInputError)) throw e;
              // A malformed line ends the stream with the reason, rather than being skipped.
              await stream.writeSSE({
                event: "end",
                data: JSON.stringify({ state: "failed", failure: e.message }),
              });
              break;
            }
            offset += end;
            lines += text.split("\n").length - 1;
            for (const r of records) {
              all.push(r);
              seen++;
              if (seen <= skip) continue;
              await stream.writeSSE({
                event: "case",
                id: String(seen),
                data: JSON.stringify(caseEvent(r)),
              });
            }
          }
          const run = await ctx.runs.get(runId);
          planned = run.planned || planned;
          const progress = JSON.stringify({ state: run.state, ...progressOf(all, planned) });
          if (progress !== lastProgress) {
            await stream.writeSSE({ event: "progress", data: progress });
            lastProgress = progress;
          }
          if (TERMINAL.has(run.state) && run.completed <= all.length) {
            await stream.writeSSE({
              event: "end",
              data: JSON.stringify({ state: run.state, failure: run.failure }),
            });
            break;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            ctx.sleep(EVENTS_POLL_MS, abort.signal).then(resolve, resolve);
          });
          wake = null;
        }
      } finally {
        unsubscribe();
      }
    });
  };
}

/** The runs API feature. */
export const runsApi: WorkbenchFeature = {
  id: "runs-api",
  register(app, ctx) {
    app.post("/api/runs", async (c) => {
      const runId = await startRun(ctx, await readJsonBody(c));
      return c.json({ runId }, 201);
    });
    app.get("/api/runs", async (c) => c.json(await ctx.runs.list()));
    app.get("/api/runs/:id", async (c) => {
      const { run: _run, ...rest } = await ctx.runs.get(c.req.param("id"));
      return c.json(rest);
    });
    app.get("/api/runs/:id/summary", async (c) => {
      const id = c.req.param("id");
      const run = await ctx.runs.get(id);
      const sidecar = await ctx.runs.sidecar(id).catch(() => null);
      const suite = (run.run?.suite ?? sidecar?.suite) as Suite | undefined;
      return c.json({
        state: run.state,
        ...summarizeRun(id, run.results, run.run ?? fromSidecar(sidecar), suite),
      });
    });
    app.get("/api/runs/:id/events", eventsRoute(ctx));
    app.post("/api/runs/:id/resume", async (c) => {
      const id = c.req.param("id");
      await resumeRun(ctx, id);
      return c.json({ runId: id, state: ctx.queue.held(id) ?? "queued" }, 202);
    });
    app.get("/api/runs/:id/cases/:agentId/:caseId/:repetition", async (c) => {
      const { id, agentId, caseId } = c.req.param();
      const repetition = Number(c.req.param("repetition"));
      const run = await ctx.runs.get(id);
      const record = run.results.find((r) =>
        r.agentId === agentId && r.caseId === caseId && r.repetition === repetition
      );
      if (record === undefined) {
        throw new WorkbenchError(404, `run "${id}" has no case ${agentId}/${caseId}#${repetition}`);
      }
      const transcript = await ctx.runs.transcript(id, agentId, caseId, repetition);
      return c.json({ record, transcript });
    });
  },
};

function fromSidecar(
  sidecar: Awaited<ReturnType<WorkbenchContext["runs"]["sidecar"]>>,
): Record<string, unknown> | null {
  return sidecar === null ? null : { agents: sidecar.agents, suite: sidecar.suite };
}
