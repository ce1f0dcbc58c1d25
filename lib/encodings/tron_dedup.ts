/**
 * `tron_dedup`: one class per distinct input schema, tools refer to it by name.
 *
 * @module
 */
import { armEntry } from "./_entry.ts";
import { createHash } from "node:crypto";
import { canonicalJson, schemaText } from "../catalog/canonical.ts";
import type { Tool } from "../catalog/types.ts";
import { errorMessage, listingOfParts, SkipCollector } from "./_private.ts";
import type { ArmEntry, EncodingArm } from "./types.ts";

/**
 * Thrown by the `tron_dedup` listing when two different canonical schemas get
 * the same class name. `className` names the class; `toolIds` the two tools.
 */
export class SchemaClassCollisionError extends Error {
  /** The class name both schemas hash to, e.g. `C1a2b3c4d`. */
  readonly className: string;
  /** Ids of the first tool that used the class and of the colliding tool. */
  readonly toolIds: readonly [string, string];

  /**
   * Creates the error.
   *
   * @param className The shared class name.
   * @param toolIds The first tool and the colliding tool.
   */
  constructor(className: string, toolIds: readonly [string, string]) {
    super(
      `Cannot name schema class as "${className}" already names a different schema: tools "${
        toolIds[0]
      }" and "${toolIds[1]}"`,
    );
    this.name = "SchemaClassCollisionError";
    this.className = className;
    this.toolIds = toolIds;
  }
}

/**
 * Class name of a canonical schema: `C` + the first 8 hex digits of the
 * SHA-256 of its UTF-8 bytes.
 *
 * @param canonical Canonical schema text.
 * @returns The class name, e.g. `C44136fa3` for `{}`.
 *
 * @example Usage
 * ```ts
 * import { schemaClassName } from "./tron_dedup.ts";
 * // sha256("{}") = 44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a
 * if (schemaClassName("{}") !== "C44136fa3") throw new Error();
 * ```
 */
export function schemaClassName(canonical: string): string {
  return "C" + createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 8);
}

/** Options of {@linkcode createTronDedupArm}. */
export interface TronDedupOptions {
  /**
   * Class naming function; tests inject a weak one to provoke collisions.
   * @default {schemaClassName}
   */
  readonly className?: (canonical: string) => string;
}

/**
 * Creates a `tron_dedup` arm.
 *
 * - `encodeListing`: a preamble of `class <C> = <canonical schema>` lines in
 *   first-appearance order, a blank line, then the entries `name|description|<C>`
 *   joined by `"\n\n"`. A tool without a schema renders `name|description`.
 *   No preamble when no tool has a schema.
 * - `encodeTool`: `name|description|<canonical schema>` (`name|description`
 *   without a schema).
 * - `indexFields.params`: the class body parsed and canonicalized.
 *
 * @param options See {@linkcode TronDedupOptions}.
 * @returns The arm.
 * @throws {SchemaClassCollisionError} From `encodeListing`, when two different
 * schemas get the same class name.
 */
export function createTronDedupArm(options: TronDedupOptions = {}): EncodingArm {
  const className = options.className ?? schemaClassName;
  return {
    name: "tron_dedup",
    altersIndex: false,
    lowerBound: false,
    encodeTool(tool: Tool) {
      try {
        const schema = schemaText(tool);
        const head = `${tool.name}|${tool.description}`;
        return { ok: true, text: schema === undefined ? head : `${head}|${schema}` };
      } catch (error) {
        return { ok: false, reason: `canonical JSON failed: ${errorMessage(error)}` };
      }
    },
    encodeListing(tools: readonly Tool[]) {
      return listingOfParts(this.listingParts!(tools));
    },
    // The preamble's lines as their schemas first appear, then the entries; each separator is
    // a part of its own.
    *listingParts(tools: readonly Tool[]) {
      const classes = new Map<string, { schema: string; toolId: string }>();
      const entries: { text: string; tool: Tool }[] = [];
      const ids: string[] = [];
      const skips = new SkipCollector();
      for (const tool of tools) {
        let schema: string | undefined;
        try {
          schema = schemaText(tool);
        } catch (error) {
          skips.add(tool.id, `canonical JSON failed: ${errorMessage(error)}`);
          continue;
        }
        const head = `${tool.name}|${tool.description}`;
        if (schema === undefined) {
          entries.push({ text: head, tool });
        } else {
          const name = className(schema);
          const known = classes.get(name);
          if (known === undefined) {
            if (classes.size > 0) yield "\n";
            classes.set(name, { schema, toolId: tool.id });
            yield { text: `class ${name} = ${schema}`, tool };
          } else if (known.schema !== schema) {
            throw new SchemaClassCollisionError(name, [known.toolId, tool.id]);
          }
          entries.push({ text: `${head}|${name}`, tool });
        }
        ids.push(tool.id);
      }
      if (classes.size > 0) yield "\n\n";
      for (const [i, entry] of entries.entries()) {
        if (i > 0) yield "\n\n";
        yield entry;
      }
      return { encodedIds: ids, skipped: skips.summary() };
    },
    indexFields(tool: Tool) {
      const schema = schemaText(tool);
      return {
        name: tool.name,
        server: tool.server,
        description: tool.description,
        params: schema === undefined ? "" : canonicalJson(JSON.parse(schema)),
      };
    },
  };
}

/**
 * The `tron_dedup` arm with SHA-256 class names; see {@linkcode createTronDedupArm}.
 *
 * @example Usage
 * ```ts
 * import { tronDedup } from "./tron_dedup.ts";
 * const schema = { type: "object" };
 * const a = { id: "s:a", server: "s", name: "a", description: "A", inputSchema: schema };
 * const b = { id: "s:b", server: "s", name: "b", description: "B", inputSchema: schema };
 * // sha256('{"type":"object"}') starts with a2c79926
 * const expected = 'class Ca2c79926 = {"type":"object"}\n\na|A|Ca2c79926\n\nb|B|Ca2c79926';
 * if (tronDedup.encodeListing([a, b]).text !== expected) throw new Error();
 * ```
 */
export const tronDedup: EncodingArm = createTronDedupArm();

/** Registry entry of `tron_dedup`. */
export const tronDedupEntry: ArmEntry = armEntry(
  tronDedup,
  "one class per distinct input schema, tools refer to it by name",
);
