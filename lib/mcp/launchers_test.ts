import assert from "node:assert/strict";
import { parseLaunch, pinLaunch, splitNpmSpec, uninstallableReason } from "./launchers.ts";
import type { StdioServerEntry } from "./config.ts";

const launch = (command: string, ...args: string[]) => parseLaunch({ command, args });

Deno.test("parseLaunch() recognises the npm runners of pasted configs", async (t) => {
  await t.step("npx -y with an unpinned scoped package and server arguments", () => {
    assert.deepEqual(launch("npx", "-y", "@modelcontextprotocol/server-filesystem", "/a", "/b"), {
      runner: "npx",
      ecosystem: "npm",
      spec: "@modelcontextprotocol/server-filesystem",
      package: "@modelcontextprotocol/server-filesystem",
      pinned: false,
      args: ["/a", "/b"],
    });
  });
  await t.step("@latest is a request, not a pin; an exact version is a pin", () => {
    const latest = launch("npx", "@playwright/mcp@latest", "--headless")!;
    assert.equal(latest.package, "@playwright/mcp");
    assert.equal(latest.requested, "latest");
    assert.equal(latest.pinned, false);
    assert.deepEqual(latest.args, ["--headless"]);
    const exact = launch("npx", "--yes", "mcp-server-sqlite-npx@0.8.0", "/db.sqlite")!;
    assert.equal(exact.package, "mcp-server-sqlite-npx");
    assert.equal(exact.requested, "0.8.0");
    assert.equal(exact.pinned, true);
    assert.equal(launch("npx", "-y", "x@1.2.3-beta.1")!.pinned, true);
    assert.equal(launch("npx", "-y", "x@^1.2.3")!.pinned, false);
  });
  await t.step("--package names the package and the first positional is the bin", () => {
    for (
      const args of [["-p", "@a/pkg@2.0.0", "a-server", "--x"], [
        "--package=@a/pkg@2.0.0",
        "a-server",
        "--x",
      ]]
    ) {
      const l = parseLaunch({ command: "npx", args })!;
      assert.equal(l.package, "@a/pkg");
      assert.equal(l.requested, "2.0.0");
      assert.equal(l.bin, "a-server");
      assert.deepEqual(l.args, ["--x"]);
    }
  });
  await t.step("pnpm dlx, pnpx, yarn dlx, bunx, bun x, npm exec, a full path and cmd /c", () => {
    const runners = [
      [launch("pnpm", "dlx", "srv@1.0.0"), "pnpm dlx"],
      [launch("pnpx", "srv@1.0.0"), "pnpx"],
      [launch("yarn", "dlx", "srv@1.0.0"), "yarn dlx"],
      [launch("bunx", "--bun", "srv@1.0.0"), "bunx"],
      [launch("bun", "x", "srv@1.0.0"), "bun x"],
      [launch("npm", "exec", "--yes", "--", "srv@1.0.0"), "npm exec"],
      [launch("/usr/local/bin/npx", "-y", "srv@1.0.0"), "npx"],
      [launch("cmd", "/c", "npx", "-y", "srv@1.0.0"), "npx"],
      [launch("C:\\Program Files\\nodejs\\npx.cmd", "-y", "srv@1.0.0"), "npx"],
    ] as const;
    for (const [l, runner] of runners) {
      assert.equal(l?.runner, runner);
      assert.equal(l?.package, "srv");
      assert.equal(l?.requested, "1.0.0");
    }
  });
  await t.step("not a runner, or a runner without a package", () => {
    assert.equal(launch("node", "server.js"), undefined);
    assert.equal(launch("npm", "start"), undefined);
    assert.equal(launch("npx"), undefined);
    assert.equal(launch("npx", "-y"), undefined);
  });
});

Deno.test("parseLaunch() recognises Python runners, which cannot be installed offline", () => {
  const uvx = launch("uvx", "mcp-server-fetch", "--ignore-robots-txt")!;
  assert.equal(uvx.ecosystem, "pypi");
  assert.equal(uvx.spec, "mcp-server-fetch");
  assert.deepEqual(uvx.args, ["--ignore-robots-txt"]);
  assert.match(
    uninstallableReason(uvx)!,
    /^uvx mcp-server-fetch downloads a Python package from PyPI/,
  );
  const from = launch(
    "uvx",
    "--from",
    "mcp-server-git==0.6.2",
    "mcp-server-git",
    "--repository",
    "/r",
  )!;
  assert.equal(from.spec, "mcp-server-git==0.6.2");
  assert.equal(from.requested, "0.6.2");
  assert.equal(from.pinned, true);
  assert.deepEqual(from.args, ["--repository", "/r"]);
  assert.equal(launch("uv", "tool", "run", "x")?.runner, "uv tool run");
  assert.equal(launch("pipx", "run", "x")?.runner, "pipx run");
});

Deno.test("uninstallableReason() refuses specs that are not registry packages", () => {
  for (const spec of ["github:org/repo", "git+https://h/r.git", "./local", "https://h/p.tgz"]) {
    const l = launch("npx", "-y", spec)!;
    assert.equal(l.package, undefined, spec);
    assert.match(uninstallableReason(l)!, /is not an npm registry package/);
  }
  assert.equal(uninstallableReason(launch("npx", "-y", "@a/b")!), undefined);
});

Deno.test("splitNpmSpec() splits scoped and plain specs", () => {
  assert.deepEqual(splitNpmSpec("@a/b@1.0.0"), { name: "@a/b", version: "1.0.0" });
  assert.deepEqual(splitNpmSpec("@a/b"), { name: "@a/b" });
  assert.deepEqual(splitNpmSpec("b@latest"), { name: "b", version: "latest" });
  assert.equal(splitNpmSpec("b@"), undefined);
  assert.equal(splitNpmSpec("git+https://x"), undefined);
});

Deno.test("pinLaunch() runs the installed bin with the server's arguments and keeps the rest", () => {
  const entry: StdioServerEntry = {
    kind: "stdio",
    name: "fs",
    command: "npx",
    args: ["-y", "-p", "@a/pkg", "a-server", "/data"],
    env: { K: "${KEY}" },
    cwd: "/w",
    meta: { timeoutMs: 5000, extra: {} },
  };
  const pinned = pinLaunch(entry, parseLaunch(entry)!, "3.1.4");
  assert.deepEqual(pinned, {
    kind: "stdio",
    name: "fs",
    command: "node",
    args: ["${BIN}", "/data"],
    env: { K: "${KEY}" },
    cwd: "/w",
    meta: { timeoutMs: 5000, extra: {}, package: "@a/pkg", version: "3.1.4", bin: "a-server" },
  });
});
