// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { liveProcessesWith } from "../../testing/mcp.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseServersConfig, type StdioServerEntry } from "./config.ts";
import { listAll } from "./list.ts";
import type { IsolationMode } from "./_sandbox.ts";
import {
  createSessionFolder,
  openStdioSession,
  removeStaleSessionFolders,
  SESSION_FOLDER_PREFIX,
  SessionStartError,
} from "./session.ts";

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/mcp/${name}`, import.meta.url));

function entry(name: string, spec: Record<string, unknown>): StdioServerEntry {
  return parseServersConfig({ mcpServers: { [name]: spec } } as never)
    .servers[0] as StdioServerEntry;
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

const exists = (path: string) => {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
};

async function sessionRoundTrip(isolation?: IsolationMode) {
  const marker = `mcpmeter-session-child-${crypto.randomUUID()}`;
  const session = await openStdioSession(
    entry("withchild", { command: "node", args: [fixture("serve_with_child.mjs"), marker] }),
    {
      timeoutMs: 10_000,
      env: { OPENAI_API_KEY: "sk-must-not-leak" },
      ...(isolation ? { isolation } : {}),
    },
  );
  // The server and its child both run (plus the `unshare` wrapper under namespace isolation).
  assert.ok(await waitFor(() => liveProcessesWith(marker).length >= 2, 5_000));
  assert.ok(session.folder.includes(`${SESSION_FOLDER_PREFIX}${Deno.pid}-withchild-`));
  const list = await listAll(session.client, "tools/list", { requestTimeoutMs: 5_000 });
  assert.deepEqual(list.items.map((t) => t.name), [
    "notes.search_every_note_in_the_workspace_by_keyword_and_return_the_matching_lines",
    "echo",
  ]);
  // The client stays usable for further requests.
  for (const message of ["one", "two"]) {
    const result = await session.client.request(
      { method: "tools/call", params: { name: "echo", arguments: { message } } },
      z.looseObject({}),
      { timeout: 5_000 },
    ) as { content: { text: string }[]; env: { HOME: string; OPENAI_API_KEY: string | null } };
    assert.equal(result.content[0].text, `echo: ${message}`);
    // HOME is the session's throwaway folder; the caller's variables are not inherited.
    assert.equal(result.env.HOME, join(session.folder, "home"));
    assert.equal(result.env.OPENAI_API_KEY, null);
  }
  await session.close();
  await session.close(); // idempotent
  assert.ok(
    await waitFor(() => liveProcessesWith(marker).length === 0, 3_000),
    `left behind: ${liveProcessesWith(marker)}`,
  );
  assert.equal(exists(session.folder), false);
}

Deno.test("openStdioSession() keeps a client for many calls; close() kills the whole tree and removes the folders", async () => {
  await sessionRoundTrip();
});

Deno.test("openStdioSession() with the process-group fallback also leaves no process", async () => {
  await sessionRoundTrip("process-group");
});

Deno.test("openStdioSession() throws SessionStartError for a hanging server and leaves nothing behind", async () => {
  const marker = `mcpmeter-hang-child-${crypto.randomUUID()}`;
  const markerFile = await Deno.makeTempFile({ prefix: "mcpmeter-marker-" });
  const before = new Set(
    Array.from(Deno.readDirSync(Deno.env.get("TMPDIR") ?? "/tmp")).map((e) => e.name),
  );
  try {
    await assert.rejects(
      openStdioSession(
        entry("hang", {
          command: "node",
          args: [fixture("hang.mjs"), marker],
          env: { MARKER_FILE: markerFile },
        }),
        { timeoutMs: 1_500 },
      ),
      (e: unknown) =>
        e instanceof SessionStartError && e.server === "hang" &&
        e.message === 'Cannot start MCP server "hang": no answer to initialize within 1500 ms',
    );
    assert.equal(await Deno.readTextFile(markerFile), "started");
    assert.ok(await waitFor(() => liveProcessesWith(marker).length === 0, 3_000));
    const leftover = Array.from(Deno.readDirSync(Deno.env.get("TMPDIR") ?? "/tmp"))
      .map((e) => e.name)
      .filter((n) => !before.has(n) && n.startsWith(`${SESSION_FOLDER_PREFIX}${Deno.pid}-hang-`));
    assert.deepEqual(leftover, []);
  } finally {
    await Deno.remove(markerFile);
  }
});

Deno.test("openStdioSession() names a missing command", async () => {
  await assert.rejects(
    openStdioSession(entry("nope", { command: "no-such-command-mcpmeter" })),
    (e: unknown) =>
      e instanceof SessionStartError &&
      e.message ===
        'Cannot start MCP server "nope": command "no-such-command-mcpmeter" not found or not executable',
  );
});

Deno.test("removeStaleSessionFolders() removes old folders of dead processes only", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-sweep-test-" });
  try {
    // A pid that surely ran and has exited: a finished child of ours.
    const child = new Deno.Command("true").spawn();
    const deadPid = child.pid;
    await child.status;
    const dead = join(tmp, `${SESSION_FOLDER_PREFIX}${deadPid}-fs-abc123`);
    const mine = join(tmp, `${SESSION_FOLDER_PREFIX}${Deno.pid}-fs-def456`);
    const init = join(tmp, `${SESSION_FOLDER_PREFIX}1-fs-ghi789`);
    const other = join(tmp, `mcpmeter-other-${deadPid}-x`);
    for (const d of [dead, mine, init, other]) {
      await Deno.mkdir(join(d, "home"), { recursive: true });
    }
    // Just made: too young to be stale, even though its pid is gone (it may run in another pid
    // namespace that shares this folder).
    assert.deepEqual(await removeStaleSessionFolders(tmp), []);
    assert.equal(exists(dead), true);
    // Seven hours later it is old enough.
    const later = Date.now() + 7 * 60 * 60 * 1000;
    assert.deepEqual(await removeStaleSessionFolders(tmp, { now: later }), [dead]);
    assert.deepEqual([dead, mine, init, other].map(exists), [false, true, true, true]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("createSessionFolder() names the folder after this process", async () => {
  const dir = await createSessionFolder("data copy");
  try {
    const base = dir.slice(dir.lastIndexOf("/") + 1);
    assert.ok(base.startsWith(`${SESSION_FOLDER_PREFIX}${Deno.pid}-data_copy-`), base);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStdioSession(): a server that dies before initialize is named with its exit code and the end of its stderr, secrets redacted", async () => {
  // What a misconfigured server does: complains on stderr (here also echoing its key) and exits.
  const script = [
    "process.stderr.write('starting\\n');",
    "process.stderr.write('Error: ENOENT: no such file or directory, open /data/notes.db (key ' + process.env.NOTES_API_KEY + ')\\n');",
    "process.exit(3);",
  ].join(" ");
  await assert.rejects(
    openStdioSession(
      entry("notes", {
        command: "node",
        args: ["-e", script],
        env: { NOTES_API_KEY: "sk-notes-0123456789" },
      }),
      { timeoutMs: 10_000 },
    ),
    (e: unknown) =>
      e instanceof SessionStartError &&
      e.message ===
        'Cannot start MCP server "notes": the server exited with code 3 before answering initialize; its stderr ends: starting Error: ENOENT: no such file or directory, open /data/notes.db (key [REDACTED])',
  );
  // Silent: the exit code, and that it printed nothing.
  await assert.rejects(
    openStdioSession(
      entry("quiet", { command: "node", args: ["-e", "process.exit(1)"] }),
      { timeoutMs: 10_000 },
    ),
    (e: unknown) =>
      e instanceof SessionStartError &&
      e.message ===
        'Cannot start MCP server "quiet": the server exited with code 1 before answering initialize (nothing on stderr)',
  );
});

Deno.test("openStdioSession(): a server that refuses initialize with error -32000 is named with its answer", async () => {
  await assert.rejects(
    openStdioSession(
      entry("refuses", { command: "node", args: [fixture("refuse_initialize.mjs")] }),
      { timeoutMs: 10_000 },
    ),
    (e: unknown) => {
      assert.ok(e instanceof Error);
      assert.match(e.message, /EXAMPLE_API_KEY is not set/);
      assert.doesNotMatch(e.message, /exited|closed the connection/);
      return true;
    },
  );
});
