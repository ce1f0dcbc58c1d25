/**
 * The `outputSchema` contract of a `tools/call` result, as real MCP clients
 * enforce it: a tool that declares an `outputSchema` must return
 * `structuredContent`, and that content must validate against the schema
 * (MCP 2025-06-18, "Structured Content" and "Output Schema"; the TypeScript
 * SDK's `Client.callTool` throws on either). Error results (`isError: true`)
 * are exempt, as in the SDK.
 *
 * @module
 */
import { Ajv, type ValidateFunction } from "ajv";
import type { JsonObject } from "../catalog/types.ts";

/**
 * Why a result breaks its tool's `outputSchema`:
 * - `missing_structured_content`: the tool declares an `outputSchema`, the
 *   result has no `structuredContent`;
 * - `invalid_structured_content`: `structuredContent` does not validate;
 * - `invalid_output_schema`: the declared schema itself cannot be compiled,
 *   so no client can validate against it.
 */
export type StructuredContentErrorKind =
  | "missing_structured_content"
  | "invalid_structured_content"
  | "invalid_output_schema";

/** A result that real SDK clients would reject, and why. */
export interface StructuredContentError {
  /** The kind (see {@linkcode StructuredContentErrorKind}). */
  readonly kind: StructuredContentErrorKind;
  /** One line, naming the failing location and keyword where there is one. */
  readonly message: string;
}

// Made on first use: `new Ajv` compiles its meta-schema, a cost to every process importing this.
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction | Error>();

function validatorFor(schema: JsonObject): ValidateFunction | Error {
  let v = compiled.get(schema);
  if (v === undefined) {
    try {
      ajv ??= new Ajv({ strict: false, allErrors: false, validateFormats: false });
      v = ajv.compile(schema as Record<string, unknown>);
    } catch (error) {
      v = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(schema, v);
  }
  return v;
}

/**
 * Checks a `tools/call` result against its tool's `outputSchema`.
 *
 * @param outputSchema The tool's declared `outputSchema` (from `tools/list`);
 *   `undefined` when it declares none (then every result passes).
 * @param result The `tools/call` result as received.
 * @returns `undefined` when a client would accept the result, else the kind and a one-line reason.
 *
 * @example Usage
 * ```ts
 * import { checkStructuredContent } from "./structured.ts";
 * const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
 * if (checkStructuredContent(schema, { content: [], structuredContent: { n: 2 } })) throw new Error();
 * if (checkStructuredContent(schema, { content: [] })?.kind !== "missing_structured_content") {
 *   throw new Error();
 * }
 * ```
 */
export function checkStructuredContent(
  outputSchema: JsonObject | undefined,
  result: {
    readonly content?: unknown;
    readonly structuredContent?: unknown;
    readonly isError?: unknown;
  },
): StructuredContentError | undefined {
  if (outputSchema === undefined || result.isError === true) return undefined;
  if (result.structuredContent === undefined) {
    return {
      kind: "missing_structured_content",
      message: "the tool declares an outputSchema but its result has no structuredContent " +
        "(MCP clients reject such a result)",
    };
  }
  const validate = validatorFor(outputSchema);
  if (validate instanceof Error) {
    return {
      kind: "invalid_output_schema",
      message: `the tool's outputSchema cannot be compiled: ${
        validate.message.replace(/\s+/g, " ").slice(0, 200)
      }`,
    };
  }
  if (validate(result.structuredContent)) return undefined;
  const first = validate.errors?.[0];
  const at = first?.instancePath === "" || first === undefined
    ? "the top level"
    : first.instancePath;
  return {
    kind: "invalid_structured_content",
    message: `structuredContent does not match the tool's outputSchema at ${at}: ${
      first?.message ?? "invalid"
    }${first?.keyword === undefined ? "" : ` (${first.keyword})`}`,
  };
}
