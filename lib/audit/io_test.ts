// test:quick skips this file: its tests start processes (mkfifo, sh; deno task test runs them).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { findConfigs } from "./io.ts";

Deno.test("findConfigs() names a config path that leads to a device or a FIFO as not read, and reads the others", async () => {
  const home = await Deno.makeTempDir({ prefix: "mcpmeter-audit-io-" });
  try {
    const kiro = join(home, ".kiro", "settings", "mcp.json");
    const lms = join(home, ".lmstudio", "mcp.json");
    const cursor = join(home, ".cursor", "mcp.json");
    for (const p of [kiro, lms, cursor]) await Deno.mkdir(join(p, ".."), { recursive: true });
    // /dev/null read as an empty file before; /dev/zero never ends (the audit grew past 19 GB
    // in 40 s); opening a FIFO waits for a writer forever.
    await Deno.symlink("/dev/null", kiro);
    const fifo = await new Deno.Command("mkfifo", { args: [lms] }).output();
    if (!fifo.success) throw new Error("mkfifo failed");
    await Deno.writeTextFile(cursor, JSON.stringify({ mcpServers: { a: { command: "a-mcp" } } }));
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    const why = "cannot read: not a regular file (a pipe, socket or device)";
    assertEquals(found.problems.map((p) => p.message), [`${kiro}: ${why}`, `${lms}: ${why}`]);
    assertEquals(found.configs.map((c) => [c.id, c.servers.map((s) => s.name)]), [
      ["cursor ~/.cursor/mcp.json", ["a"]],
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("findConfigs() reads a pipe given with --config (--config <(jq ...))", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-io-" });
  try {
    const fifo = join(dir, "servers.json");
    if (!(await new Deno.Command("mkfifo", { args: [fifo] }).output()).success) {
      throw new Error("mkfifo failed");
    }
    // A child writes the pipe, so that a reader that never opens it fails the test, not hangs it.
    const writer = new Deno.Command("sh", {
      args: ["-c", `printf '%s' '{"mcpServers": {"a": {"command": "a-mcp"}}}' > "$0"`, fifo],
    }).spawn();
    let found;
    try {
      found = await findConfigs({ home: dir, platform: "linux", system: false, env: {} }, [fifo]);
    } finally {
      try {
        writer.kill();
      } catch { /* already exited */ }
      await writer.status;
    }
    assertEquals(found.problems, []);
    assertEquals(found.configs.map((c) => c.servers.map((s) => [s.name, s.launch])), [
      [["a", "a-mcp"]],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
