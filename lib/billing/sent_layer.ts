/**
 * The sent layer's texts: the exact `tools` value a client sends each provider for a catalog,
 * shaped as the agent runner shapes it (`exposeTools`, lib/agent/tools.ts: names the provider
 * accepts, schemas normalized to its dialect) and rendered by the one renderer of provider
 * request bodies (`sentTools`, lib/catalog/sent.ts). What is counted here is what is sent.
 *
 * @module
 */
import {
  sentFormatDialect,
  type SentTool,
  sentTools,
  type SentToolsOptions,
} from "../catalog/sent.ts";
import type { JsonObject, Tool } from "../catalog/types.ts";
import type { SentFormat } from "../catalog/sent.ts";
import { exposeForDialect } from "../agent/expose.ts";

/**
 * Tools of a corpus shaped for a format, in corpus order: the agent runner's names (the rule
 * `^[a-zA-Z0-9_-]{1,64}$`, which Gemini also accepts) and schema normalization to the format's
 * dialect (Gemini: its schema subset).
 *
 * @param tools Corpus tools.
 * @param format Request format.
 * @returns One {@linkcode SentTool} per tool, same order.
 */
export function shapeTools(tools: readonly Tool[], format: SentFormat): SentTool[] {
  const listed = tools.map((t) => ({
    server: t.server,
    item: {
      name: t.name,
      description: t.description,
      ...(t.inputSchema === undefined ? {} : { inputSchema: t.inputSchema }),
    } as JsonObject,
  }));
  return exposeForDialect(listed, sentFormatDialect(format)).map((e) => e.spec);
}

/** The tools of one corpus shaped per format, each dialect shaped once (see {@linkcode shapesOf}). */
export type Shapes = (format: SentFormat) => SentTool[];

/**
 * {@linkcode shapeTools} of one corpus for any format, each schema dialect shaped at its first
 * use and kept by the returned function (the two OpenAI formats share one), so the parts of a
 * run that read the same shapes (the bench's deferred modes and cost layers) shape them once.
 *
 * @param tools Corpus tools.
 * @returns The shapes, by format; callers must not change them.
 */
export function shapesOf(tools: readonly Tool[]): Shapes {
  const shapes = new Map<string, SentTool[]>();
  return (format) => {
    const dialect = sentFormatDialect(format);
    let out = shapes.get(dialect);
    if (out === undefined) shapes.set(dialect, out = shapeTools(tools, format));
    return out;
  };
}

/**
 * The exact `tools` text of a request in `format` for `tools`.
 *
 * @param tools Corpus tools (one server's, or the whole catalog's).
 * @param format Request format.
 * @param options `strict`, deferred names.
 * @returns `JSON.stringify` of the rendered `tools` value.
 */
export function sentText(
  tools: readonly Tool[],
  format: SentFormat,
  options: SentToolsOptions = {},
): string {
  return JSON.stringify(sentTools(shapeTools(tools, format), format, options));
}
