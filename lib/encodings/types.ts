/**
 * The encoding-arm contract: one deterministic way to render MCP tool
 * definitions into the text an agent's context receives.
 *
 * @module
 */
import type { Tool } from "../catalog/types.ts";

/** One tool an arm could not encode, with the reason in plain words. */
export interface ToolSkip {
  /** `server:name` of the skipped tool. */
  readonly toolId: string;
  /** Why the arm could not encode it, e.g. `TOON encode failed: ...`. */
  readonly reason: string;
}

/** Count of skipped tools and the first examples, in input order. */
export interface SkipSummary {
  /** Number of tools the arm could not encode (tools). */
  readonly count: number;
  /** The first {@linkcode MAX_SKIP_EXAMPLES} skips, in input order. */
  readonly examples: readonly ToolSkip[];
}

/** How many `(toolId, reason)` examples a {@linkcode SkipSummary} keeps. */
export const MAX_SKIP_EXAMPLES = 5;

/** Result of encoding one tool: its text, or a counted skip with its reason. */
export type EncodedTool =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

/** Result of encoding a whole menu of tools. */
export interface Listing {
  /** The listing text, including any shared preamble or header. */
  readonly text: string;
  /** Ids of the tools present in `text`, in listing order. */
  readonly encodedIds: readonly string[];
  /** Tools left out of `text` because the arm could not encode them. */
  readonly skipped: SkipSummary;
}

/** A {@linkcode Listing} without its text: what `EncodingArm.listingParts` returns. */
export type ListingInfo = Omit<Listing, "text"> & {
  /**
   * Text that comes before the first part, known only once every tool is rendered (TOON's
   * `[N]:`, N the count of tools listed); none when absent.
   */
  readonly header?: string;
};

/**
 * A part of a listing given in parts (`EncodingArm.listingParts`) that renders one tool: its
 * `text` may hold the tool's description or canonical schema text verbatim, which the arm
 * runner then counts once for every arm and mode (exact either way; a plain string part says
 * nothing about any tool).
 */
export interface ToolPart {
  /** The part's text. */
  readonly text: string;
  /** The tool it renders. */
  readonly tool: Tool;
  /**
   * Present when `text` is exactly `prefix + own.replaceAll("\n", "\n" + indent)`, `own` the
   * tool's `encodeTool` text (TOON's list item): the runner then prices `text` from the
   * tokens of `own` and its line junctions, without counting its lines again.
   */
  readonly reindented?: {
    /** The tool's own text. */
    readonly own: string;
    /** Text before it. */
    readonly prefix: string;
    /** Text after each of its line breaks. */
    readonly indent: string;
  };
}

/**
 * How a joined listing is made from its tools' own texts (see {@linkcode EncodingArm.joined}):
 * `header + texts.join(separator) + footer`, or `empty` when no tool is encoded.
 */
export interface JoinedListing {
  /** Text before the first tool's text. */
  readonly header: string;
  /** Text between two tools' texts. */
  readonly separator: string;
  /** Text after the last tool's text. */
  readonly footer: string;
  /** The whole listing when no tool is encoded. */
  readonly empty: string;
}

/**
 * The text a retrieval index would ingest for one tool under an arm.
 *
 * Two arms whose `IndexFields` are equal for a tool give a retriever the same
 * information about it.
 */
export interface IndexFields {
  /** Tool name as the arm renders it. */
  readonly name: string;
  /** Server that exposes the tool. */
  readonly server: string;
  /** Description text the arm keeps (`""` when none). */
  readonly description: string;
  /**
   * Parameter text the arm keeps: for lossless arms the canonical JSON of the
   * schema recovered from the arm's own output, for lossy arms the parameter
   * text they emit. `""` when the tool has no schema.
   */
  readonly params: string;
}

/**
 * One encoding arm. Implementations are pure and byte-deterministic: the same
 * tools always give the same text. They never throw for a tool they cannot
 * encode; they report a skip instead.
 */
export interface EncodingArm {
  /** snake_case arm name, e.g. `compact_sig`. Recorded in every result row. */
  readonly name: string;
  /**
   * True exactly when {@linkcode EncodingArm.indexFields} differs from
   * `baseline_json`'s for at least one tool (checked by `observeAltersIndex`).
   */
  readonly altersIndex: boolean;
  /**
   * True when the arm drops or rewrites tool description text, so its
   * savings are a lower bound on what a faithful rendering would cost less.
   */
  readonly lowerBound: boolean;
  /**
   * Standalone rendering of one tool (no shared preamble).
   *
   * @param tool The tool to render.
   * @returns The text, or a skip with its reason.
   */
  encodeTool(tool: Tool): EncodedTool;
  /**
   * The whole menu, in input order. Shared preambles and headers appear only
   * here, so per-tool token means stay comparable across arms.
   *
   * @param tools Tools to render, in the order they appear in the listing.
   * @returns The listing text, the ids it contains and the skips.
   */
  encodeListing(tools: readonly Tool[]): Listing;
  /**
   * Present when `encodeListing` is exactly its {@linkcode JoinedListing} of the `encodeTool`
   * texts of the tools, in order (a tool whose `encodeTool` fails is a skip, as in the
   * listing). The arm runner then counts the listing tool by tool, without building its text.
   */
  readonly joined?: JoinedListing;
  /**
   * Optional: the text of `encodeListing(tools)` in parts, in order (the returned `header`, then
   * the parts' concatenation, is the text; a {@linkcode ToolPart} stands for its `text`),
   * returning the listing's ids and skips; throws as `encodeListing` does. The arm runner then counts the listing part by
   * part, without building its text.
   *
   * @param tools Tools to render, as for `encodeListing`.
   * @returns The parts; the generator's return value holds `encodedIds` and `skipped`.
   */
  listingParts?(tools: readonly Tool[]): Generator<string | ToolPart, ListingInfo, undefined>;
  /**
   * Fields a retrieval index would ingest for `tool` under this arm.
   *
   * @param tool The tool.
   * @returns Name, server, description and parameter text.
   */
  indexFields(tool: Tool): IndexFields;
}

/**
 * One registered encoding arm (`lib/encodings/registry.ts`): the arm, its name and what it
 * declares (whether it alters the retrieval index, whether its savings are a lower bound). The
 * bench, `--arms` parsing and help, the golden test and the extension-points table read the registry
 * instead of parallel name lists. Adding an arm is one module exporting its arm and entry (with
 * its test and golden file) and one line in `registry.ts`.
 */
export interface ArmEntry {
  /** snake_case arm name, as in {@linkcode EncodingArm.name}. */
  readonly name: string;
  /** One line for `--help` and the extension-points table. */
  readonly summary: string;
  /** As {@linkcode EncodingArm.altersIndex}. */
  readonly altersIndex: boolean;
  /** As {@linkcode EncodingArm.lowerBound}. */
  readonly lowerBound: boolean;
  /** The arm. */
  readonly arm: EncodingArm;
}
