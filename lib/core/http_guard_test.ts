import assert from "node:assert/strict";
import {
  checkBindAddress,
  constantTimeEqual,
  createHttpGuard,
  isLoopbackHostname,
  refusalResponse,
} from "./http_guard.ts";
import { rawRequest } from "../../testing/http.ts";

function req(headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:8931/mcp", { method: "POST", headers });
}

Deno.test("guard on loopback accepts the loopback names with the bound port only", () => {
  const g = createHttpGuard({ hostname: "127.0.0.1", port: 8931 });
  assert.deepEqual(g.hosts, ["127.0.0.1:8931", "localhost:8931", "[::1]:8931"]);
  for (const host of ["127.0.0.1:8931", "LOCALHOST:8931", "[::1]:8931"]) {
    assert.equal(g.check(req({ host })), undefined, host);
  }
  for (
    const host of [
      "evil.example",
      "evil.example:8931",
      "127.0.0.1:8932",
      "127.0.0.1", // port 80
      "localhost.evil.example:8931",
      "127.0.0.1:8931/x",
      "user@127.0.0.1:8931",
    ]
  ) {
    const r = g.check(req({ host }));
    assert.equal(r?.status, 403, host);
    assert.equal(r?.check, "host");
  }
  assert.equal(
    g.check(req({ host: "evil.example:8931" }))?.reason,
    'Refused: Host "evil.example:8931" is not this server (allowed: 127.0.0.1:8931, localhost:8931, [::1]:8931)',
  );
});

Deno.test("guard: allowedHosts entries without a port match any port; with a port, that port", () => {
  const g = createHttpGuard({
    hostname: "0.0.0.0",
    port: 8931,
    allowedHosts: ["mcp.example.org", "10.0.0.5:9000"],
  });
  // A wildcard bind keeps the loopback names and adds no name of its own.
  assert.deepEqual(g.hosts, ["127.0.0.1:8931", "localhost:8931", "[::1]:8931", "10.0.0.5:9000"]);
  assert.equal(g.check(req({ host: "mcp.example.org" })), undefined);
  assert.equal(g.check(req({ host: "mcp.example.org:443" })), undefined);
  assert.equal(g.check(req({ host: "10.0.0.5:9000" })), undefined);
  assert.equal(g.check(req({ host: "10.0.0.5:8931" }))?.status, 403);
  assert.equal(g.check(req({ host: "0.0.0.0:8931" }))?.status, 403);
  assert.throws(
    () => createHttpGuard({ hostname: "127.0.0.1", port: 1, allowedHosts: ["a b"] }),
    RangeError,
  );
});

Deno.test("guard on a specific address accepts that address with the bound port", () => {
  const g = createHttpGuard({ hostname: "192.0.2.7", port: 80, token: "t0ken-t0ken" });
  assert.deepEqual(g.hosts, ["192.0.2.7:80"]);
  const auth = { authorization: "Bearer t0ken-t0ken" };
  assert.equal(g.check(req({ host: "192.0.2.7", ...auth })), undefined);
  assert.equal(g.check(req({ host: "192.0.2.7:80", ...auth })), undefined);
  assert.equal(g.check(req({ host: "127.0.0.1:80", ...auth }))?.status, 403);
});

Deno.test("guard refuses an Origin that is present and not allowed, Origin null included", () => {
  const g = createHttpGuard({
    hostname: "127.0.0.1",
    port: 8931,
    allowedOrigins: ["https://Notebook.example:8443"],
  });
  const host = "127.0.0.1:8931";
  assert.equal(g.check(req({ host })), undefined, "no Origin: not a browser");
  for (
    const origin of [
      "http://127.0.0.1:8931",
      "http://localhost:8931",
      "https://notebook.example:8443",
    ]
  ) {
    assert.equal(g.check(req({ host, origin })), undefined, origin);
  }
  for (
    const origin of [
      "http://evil.example",
      "http://127.0.0.1:8932",
      "https://127.0.0.1:8931",
      "null",
      "not a url",
    ]
  ) {
    const r = g.check(req({ host, origin }));
    assert.equal(r?.status, 403, origin);
    assert.equal(r?.check, "origin");
  }
  assert.equal(
    g.check(req({ host, origin: "http://evil.example" }))?.reason,
    'Refused: Origin "http://evil.example" is not allowed',
  );
});

Deno.test("guard: the token is required, compared exactly, and never in a reason", () => {
  const token = "s3cret-value-42";
  const g = createHttpGuard({ hostname: "127.0.0.1", port: 8931, token });
  const host = "127.0.0.1:8931";
  assert.equal(g.check(req({ host, authorization: `Bearer ${token}` })), undefined);
  assert.equal(g.check(req({ host, authorization: `bearer ${token}` })), undefined);
  for (
    const authorization of [
      undefined,
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      `Basic ${token}`,
      token,
      "Bearer ",
    ]
  ) {
    const headers: Record<string, string> = { host };
    if (authorization !== undefined) headers.authorization = authorization;
    const r = g.check(req(headers));
    assert.equal(r?.status, 401, String(authorization));
    assert.equal(r?.check, "token");
    assert.ok(!r!.reason.includes(token), r!.reason);
  }
  // Host is checked before the token: a rebinding page learns nothing about the token.
  assert.equal(g.check(req({ host: "evil.example:8931" }))?.check, "host");
});

Deno.test("constantTimeEqual and isLoopbackHostname", () => {
  assert.equal(constantTimeEqual("", ""), true);
  assert.equal(constantTimeEqual("a", "b"), false);
  assert.equal(constantTimeEqual("abc", "abcd"), false);
  assert.equal(constantTimeEqual("ü", "ü"), true);
  for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) {
    assert.equal(isLoopbackHostname(h), true, h);
  }
  for (const h of ["0.0.0.0", "::", "192.168.1.1", "128.0.0.1", "localhost.example"]) {
    assert.equal(isLoopbackHostname(h), false, h);
  }
});

Deno.test("checkBindAddress: off loopback a token is required; a weak token is refused anywhere", () => {
  checkBindAddress("127.0.0.1", undefined);
  checkBindAddress("::1", "");
  checkBindAddress("0.0.0.0", "0123456789abcdef");
  checkBindAddress("127.0.0.1", "9f86d081884c7d65");
  // Set, a token must be one: 16 spaces, 16 identical characters, a two-letter pattern.
  for (const token of ["q7z", " ".repeat(16), "\t".repeat(16), "x".repeat(16), "ab".repeat(8)]) {
    for (const host of ["127.0.0.1", "0.0.0.0"]) {
      assert.throws(
        () => checkBindAddress(host, token, "--token"),
        (e: Error) => e instanceof RangeError && !e.message.includes(token),
        JSON.stringify([host, token]),
      );
    }
  }
  assert.throws(
    () => checkBindAddress("0.0.0.0", "0123456789abcde", "--token"),
    {
      name: "RangeError",
      message:
        "Binding 0.0.0.0 exposes the server beyond this machine: the token is 15 characters, fewer than 16 (make one with: openssl rand -hex 24); set a stronger one as --token",
    },
  );
  assert.throws(
    () => checkBindAddress("0.0.0.0", undefined, "--token"),
    {
      name: "RangeError",
      message:
        "Binding 0.0.0.0 exposes the server beyond this machine: set --token (or bind 127.0.0.1)",
    },
  );
  assert.throws(() => checkBindAddress("192.168.1.4", ""), RangeError);
});

Deno.test("guard over real HTTP: refusals are 403/401 with a one-line JSON-RPC or text reason", async () => {
  const state: { guard?: ReturnType<typeof createHttpGuard> } = {};
  let format: "json-rpc" | "text" = "json-rpc";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (r) => {
    const refusal = state.guard!.check(r);
    return refusal === undefined ? new Response("ok") : refusalResponse(refusal, format);
  });
  const port = server.addr.port;
  state.guard = createHttpGuard({ hostname: "127.0.0.1", port, token: "tok-tok-tok" });
  try {
    const evil = await rawRequest(port, { host: "evil.example" });
    assert.equal(evil.status, 403);
    assert.deepEqual(JSON.parse(evil.body), {
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: `Refused: Host "evil.example" is not this server (allowed: 127.0.0.1:${port}, ` +
          `localhost:${port}, [::1]:${port})`,
      },
      id: null,
    });
    format = "text";
    const origin = await rawRequest(port, {
      host: `localhost:${port}`,
      headers: { Origin: "http://evil.example" },
    });
    assert.equal(origin.status, 403);
    assert.equal(origin.body, 'Refused: Origin "http://evil.example" is not allowed\n');
    const noToken = await rawRequest(port, { host: `127.0.0.1:${port}` });
    assert.equal(noToken.status, 401);
    assert.equal(noToken.headers["www-authenticate"], "Bearer");
    const ok = await rawRequest(port, {
      host: `127.0.0.1:${port}`,
      headers: { Authorization: "Bearer tok-tok-tok" },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body, "ok");
  } finally {
    await server.shutdown();
  }
});
