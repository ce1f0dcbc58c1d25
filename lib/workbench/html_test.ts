// The page frame escapes by default (Hono's html template), and the client script served at
// /assets/workbench.js parses and defines every page controller a page may start.
import assert from "node:assert/strict";
import { html, page, raw, withNav } from "./html.ts";
import { CLIENT_ENTRIES, CLIENT_JS } from "./client/mod.ts";
import type { WorkbenchContext } from "./app.ts";

const ctx = {
  nav: [{ href: "/runs", title: "Runs", order: 1 }, { href: "/a?b=1&c=2", title: "A&B", order: 2 }],
} as unknown as WorkbenchContext;

Deno.test("html: interpolated text is escaped for content and attributes; nested templates and raw pass", () => {
  const evil = `"><script>alert('x')</script>&`;
  const out = String(html`<p title="${evil}">${evil}${html`<b>${"<i>"}</b>`}${raw("<hr>")}</p>`);
  assert.equal(
    out,
    '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">' +
      "&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;<b>&lt;i&gt;</b><hr></p>",
  );
  // Arrays join without separators; null, undefined and booleans render nothing.
  assert.equal(String(html`${["a", html`<br>`, null, undefined, false, 3]}`), "a<br>3");
});

Deno.test("page(): the title and navigation are escaped; the active entry is marked; a document starts with its doctype", () => {
  const out = String(page(ctx, { title: "Run <x>", active: "/runs", body: html`<p>ok</p>` }));
  assert.match(out, /^<!doctype html>/);
  assert.ok(out.includes("<h1>Run &lt;x&gt;</h1>"), out);
  assert.match(out, /<a href="\/runs"\s+class="active">Runs<\/a>/);
  assert.match(out, /<a href="\/a\?b=1&amp;c=2"\s+class="">A&amp;B<\/a>/);
});

Deno.test("withNav(): the bar goes right after <body>, whatever the page holds ($ patterns included)", () => {
  const doc = `<!doctype html><html><head></head><body class="x">\n<h1>$& $1</h1></body></html>`;
  const out = withNav(ctx, "/runs", doc, html`<a href="/back">back ${"$&"}</a>`);
  const at = out.indexOf(`<body class="x">`) + `<body class="x">`.length;
  assert.match(out.slice(at), /^\n<style>[^<]*<\/style><header class="wb-nav">/);
  assert.ok(out.includes(`<a href="/back">back $&amp;</a>`), out);
  assert.ok(out.endsWith(`<h1>$& $1</h1></body></html>`), out);
});

Deno.test("client script: it parses and puts every page controller and helper on window.workbench", () => {
  const window: { workbench?: Record<string, unknown> } = { workbench: { kept: 1 } };
  new Function("window", CLIENT_JS)(window);
  assert.deepEqual(
    Object.keys(window.workbench!).sort(),
    ["kept", ...CLIENT_ENTRIES].sort(),
  );
  for (const name of CLIENT_ENTRIES) assert.equal(typeof window.workbench![name], "function", name);
});
