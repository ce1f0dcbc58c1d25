/**
 * Per-agent tool allow and deny lists: `server:tool` globs (`*` matches any run of characters,
 * `?` one), so "the same agent with 10 tools instead of 80" is one line of its configuration.
 *
 * @module
 */

/** An agent's tool lists, as written in its configuration. */
export interface ToolLists {
  /** Only tools matching one of these globs are offered; absent: every tool. */
  readonly allow?: readonly string[];
  /** Tools matching one of these globs are never offered (applied after `allow`). */
  readonly deny?: readonly string[];
}

function globRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/**
 * Compiles an agent's allow and deny lists into a predicate over `server` and `tool` names.
 *
 * @param lists The agent's `tools` field; `undefined` keeps every tool.
 * @returns `(server, tool) => boolean`: true when the tool is offered.
 *
 * @example Usage
 * ```ts
 * import { toolFilter } from "./tool_filter.ts";
 * const keep = toolFilter({ allow: ["fs:read_*", "memory:*"], deny: ["memory:delete_*"] });
 * if (!keep("fs", "read_file") || keep("fs", "write_file") || keep("memory", "delete_entities")) {
 *   throw new Error();
 * }
 * ```
 */
export function toolFilter(
  lists: ToolLists | undefined,
): (server: string, tool: string) => boolean {
  if (lists === undefined || (lists.allow === undefined && lists.deny === undefined)) {
    return () => true;
  }
  const allow = lists.allow?.map(globRegExp);
  const deny = (lists.deny ?? []).map(globRegExp);
  return (server, tool) => {
    const id = `${server}:${tool}`;
    if (allow !== undefined && !allow.some((re) => re.test(id))) return false;
    return !deny.some((re) => re.test(id));
  };
}
