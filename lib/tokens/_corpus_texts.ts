// Test and bench helper: per-tool texts of a catalog file, read without the
// catalog loader so tokenizer checks stay independent of it.

/** Path of the LiveMCPBench snapshot shipped beside the project (may be absent). */
export const LIVEMCPTOOL_PATH = new URL(
  "../../../shared/corpora/livemcptool/tools.json",
  import.meta.url,
);
/** Path of the frozen reference corpus. */
export const REFERENCE_PATH = new URL(
  "../../fixtures/corpora/reference_v1.tools.json",
  import.meta.url,
);

/** Whether a file exists (false for any stat error). */
export function exists(path: URL): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

type RawTool = { name?: string; tool?: string; description?: string | null; inputSchema?: unknown };

/** name + "\n" + description + "\n" + schema JSON, one string per tool. */
export function corpusTexts(path: URL): string[] {
  const data = JSON.parse(Deno.readTextFileSync(path));
  const tools: RawTool[] = Array.isArray(data.servers)
    ? data.servers.flatMap((s: { tools: RawTool[] }) => s.tools)
    : data.tools;
  return tools.map((t) =>
    `${t.name ?? t.tool}\n${t.description ?? ""}` +
    (t.inputSchema === undefined ? "" : `\n${JSON.stringify(t.inputSchema)}`)
  );
}
