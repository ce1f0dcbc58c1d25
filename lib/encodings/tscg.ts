/**
 * `tscg`: the TSCG tool-schema compressor (`@tscg/core`), when importable.
 *
 * @module
 */
import type { Tool } from "../catalog/types.ts";
import { guarded, joinedBy, joinedListing } from "./_private.ts";
import type { ArmEntry, EncodingArm, JoinedListing, UnavailableArm } from "./types.ts";

/**
 * Reason reported when `@tscg/core` cannot be imported: what is missing and how to get it (the
 * npm registry this project installs from returns 404 for `@tscg/core`, so deno.json does not
 * map it).
 */
export const TSCG_UNAVAILABLE_REASON: string =
  'the npm package @tscg/core is not installed: deno.json\'s "imports" do not map it, since the ' +
  "npm registry this checkout installs from does not serve it; to measure tscg, map " +
  '"@tscg/core" there (npm:@tscg/core@VERSION from a registry that serves it, or a local copy of ' +
  "the package); --arms without tscg leaves this row out";

/** Reason reported when `@tscg/core` imports but has no `compress()` (another API version). */
export const TSCG_NO_COMPRESS_REASON: string =
  "@tscg/core was imported but has no compress() export: the tscg arm calls " +
  "compress(tools, { model, profile }).compressed; map a version of the package with that API";

/** The part of `@tscg/core` the arm uses: `compress(tools, options).compressed`. */
export interface TscgModule {
  /** Compresses OpenAI-style function tools into one text. */
  compress(
    tools: readonly unknown[],
    options?: { readonly model?: string; readonly profile?: string },
  ): { readonly compressed: string };
}

/** Options of {@linkcode loadTscgArm}. */
export interface LoadTscgOptions {
  /**
   * Imports the module. The default is a dynamic `import("@tscg/core")`, which
   * resolves only when the import map (deno.json) maps that name.
   */
  readonly importer?: () => Promise<unknown>;
  /**
   * TSCG target model.
   * @default {"gpt-4o"}
   */
  readonly model?: string;
  /**
   * TSCG profile.
   * @default {"balanced"}
   */
  readonly profile?: string;
}

function openAiTool(tool: Tool): unknown {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema ?? { type: "object", properties: {} },
    },
  };
}

/** How the listing joins the tools' texts. */
const JOIN: JoinedListing = joinedBy("\n");

/**
 * Builds the `tscg` arm around an imported `@tscg/core` module.
 *
 * `encodeTool` compresses one tool; `encodeListing` compresses each tool and
 * joins the texts with `"\n"`, so a tool TSCG rejects is a counted skip rather
 * than a failed listing. TSCG rewrites descriptions, so the arm is a lower
 * bound and alters the index (its `indexFields.description` is the compressed
 * text, `params` is `""`).
 *
 * @param module The imported module.
 * @param options Model and profile.
 * @returns The arm.
 */
export function createTscgArm(module: TscgModule, options: LoadTscgOptions = {}): EncodingArm {
  const settings = { model: options.model ?? "gpt-4o", profile: options.profile ?? "balanced" };
  return {
    name: "tscg",
    altersIndex: true,
    lowerBound: true,
    encodeTool(tool: Tool) {
      return guarded("TSCG compress", () => {
        const out = module.compress([openAiTool(tool)], settings).compressed;
        if (typeof out !== "string") throw new TypeError("compress() returned no text");
        return out;
      });
    },
    encodeListing(tools: readonly Tool[]) {
      return joinedListing(tools, (t) => this.encodeTool(t), JOIN);
    },
    joined: JOIN,
    indexFields(tool: Tool) {
      const out = this.encodeTool(tool);
      return {
        name: tool.name,
        server: tool.server,
        description: out.ok ? out.text : "",
        params: "",
      };
    },
  };
}

/**
 * Loads the `tscg` arm, or reports it unavailable when `@tscg/core` cannot be
 * imported (the default here: the npm registry this project uses does not
 * serve it). Never throws.
 *
 * @param options Importer, model and profile.
 * @returns The arm, or an {@linkcode UnavailableArm} with reason
 * {@linkcode TSCG_UNAVAILABLE_REASON} (not importable) or {@linkcode TSCG_NO_COMPRESS_REASON}.
 *
 * @example Usage
 * ```ts
 * import { loadTscgArm } from "./tscg.ts";
 * const arm = await loadTscgArm({ importer: () => Promise.reject(new Error("absent")) });
 * if (!("unavailable" in arm)) throw new Error("expected an unavailable arm");
 * ```
 */
export async function loadTscgArm(
  options: LoadTscgOptions = {},
): Promise<EncodingArm | UnavailableArm> {
  const specifier = "@tscg/core";
  const importer = options.importer ?? (() => import(specifier));
  let module: Partial<TscgModule> | undefined;
  try {
    module = await importer() as Partial<TscgModule> | undefined;
  } catch {
    return { name: "tscg", unavailable: true, reason: TSCG_UNAVAILABLE_REASON };
  }
  if (typeof module?.compress !== "function") {
    return { name: "tscg", unavailable: true, reason: TSCG_NO_COMPRESS_REASON };
  }
  return createTscgArm(module as TscgModule, options);
}

/** Registry entry of `tscg` (needs `@tscg/core`; unavailable without it). */
export const tscgEntry: ArmEntry = {
  name: "tscg",
  summary: "TSCG compression of each tool (lossy: savings are a lower bound)",
  altersIndex: true,
  lowerBound: true,
  requires: "@tscg/core",
  load: () => loadTscgArm(),
};
