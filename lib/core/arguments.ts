/**
 * One argument check for the tools mcpmeter itself serves (the proxy's `retrieve_tools` /
 * `describe_tool` / `call_tool`, the code exposure's `retrieve_tools` / `run_code`): a call's
 * `arguments` validated with ajv against the `inputSchema` the tool publishes.
 *
 * @module
 */
import { Ajv, type ValidateFunction } from "ajv";

/**
 * Builds a checker over tool definitions; the schemas are compiled on first use.
 *
 * @param definitions Tool definitions as listed (`name`, `inputSchema`).
 * @param unknownTool The reason given for a name that is not among `definitions`.
 * @returns `check(name, args)`: `undefined` when valid (absent arguments count as `{}`), else
 *   one line `Invalid arguments for NAME: arguments/PATH MESSAGE`, naming the offending
 *   property or the allowed values where ajv reports them.
 *
 * @example Usage
 * ```ts
 * import { argumentChecker } from "./arguments.ts";
 * const check = argumentChecker(
 *   [{ name: "t", inputSchema: { type: "object", properties: { n: { type: "integer" } } } }],
 *   (name) => `unknown tool "${name}"`,
 * );
 * if (check("t", { n: 1 }) !== undefined) throw new Error("valid");
 * if (check("t", { n: "x" }) !== "Invalid arguments for t: arguments/n must be integer") {
 *   throw new Error("invalid");
 * }
 * ```
 */
export function argumentChecker(
  definitions: readonly { readonly [key: string]: unknown }[],
  unknownTool: (name: string) => string,
): (name: string, args: unknown) => string | undefined {
  let validators: Map<string, ValidateFunction> | undefined;
  return (name, args) => {
    if (validators === undefined) {
      validators = new Map();
      const ajv = new Ajv({ allErrors: false, strict: false });
      for (const def of definitions) {
        validators.set(def.name as string, ajv.compile(def.inputSchema as object));
      }
    }
    const validate = validators.get(name);
    if (validate === undefined) return unknownTool(name);
    if (validate(args ?? {})) return undefined;
    const error = validate.errors?.[0];
    const where = error === undefined || error.instancePath === ""
      ? "arguments"
      : `arguments${error.instancePath}`;
    const extra = error?.keyword === "additionalProperties"
      ? ` (${JSON.stringify((error.params as { additionalProperty?: string }).additionalProperty)})`
      : error?.keyword === "enum"
      ? ` (${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)})`
      : "";
    return `Invalid arguments for ${name}: ${where} ${error?.message ?? "are invalid"}${extra}`;
  };
}
