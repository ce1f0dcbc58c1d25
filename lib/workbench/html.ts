/**
 * The workbench page frame: header with every feature's navigation, a stylesheet, the shared
 * client script. Pages are server-rendered HTML fragments placed in it.
 *
 * @module
 */

import { html as honoHtml, raw as honoRaw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { WorkbenchContext } from "./app.ts";

/** HTML text whose interpolated values were escaped (or deliberately passed through `raw`). */
export type Html = HtmlEscapedString;

/** Text passed into a template as HTML, unescaped: only for markup and styles we wrote. */
export function raw(text: string): Html {
  return honoRaw(text);
}

/**
 * Hono's `html` tagged template, synchronous: every interpolated string is escaped for content
 * and quoted attribute values; `Html` values (nested templates, `raw`) and arrays of them pass
 * through; `null`, `undefined` and booleans render nothing.
 *
 * @throws {TypeError} when a value is a promise (await it first).
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const out = honoHtml(strings, ...values);
  if (out instanceof Promise) throw new TypeError("html: await promises before interpolating");
  return out;
}

/** What a page puts in the frame. */
export interface PageOptions {
  /** `<title>` and heading. */
  readonly title: string;
  /** `href` of the active navigation entry. */
  readonly active: string;
  /** Body. */
  readonly body: Html;
  /** Name of a client page module to start (`window.workbench[name]`), e.g. `runPage`. */
  readonly script?: string;
}

/** The stylesheet (light, print-friendly). */
export const STYLES = `
:root { --fg:#1d2430; --muted:#5b6575; --line:#d9dee7; --bg:#f6f7f9; --accent:#2156c9;
  --ok:#1f7a3a; --bad:#b3261e; --warn:#9a6700; font-family: system-ui, sans-serif; color: var(--fg); }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 0 24px; display: flex;
  align-items: center; gap: 24px; height: 52px; position: sticky; top: 0; z-index: 2; }
header .brand { font-weight: 700; }
header nav a { color: var(--muted); text-decoration: none; margin-right: 18px; padding: 16px 0; }
header nav a.active { color: var(--fg); border-bottom: 2px solid var(--accent); }
main { padding: 20px 24px 60px; max-width: 1440px; }
h1 { font-size: 22px; margin: 4px 0 16px; }
h2 { font-size: 17px; margin: 26px 0 10px; }
h3 { font-size: 15px; margin: 18px 0 8px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px;
  margin-bottom: 16px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; background: #fff; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
/* A long word in a cell (a path in a server's cause, a launch command) breaks inside the cell. */
td.wrap, th.wrap { overflow-wrap: anywhere; } th.wrap { white-space: normal; }
code, pre, .mono { font-family: ui-monospace, monospace; font-size: 12px; }
pre { white-space: pre-wrap; word-break: break-word; background: var(--bg); padding: 8px;
  border-radius: 6px; margin: 4px 0; max-height: 360px; overflow: auto; }
.muted { color: var(--muted); }
.pass { color: var(--ok); font-weight: 600; } .fail { color: var(--bad); font-weight: 600; }
.err { color: var(--warn); font-weight: 600; }
.state { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px;
  background: var(--bg); border: 1px solid var(--line); }
.state.running, .state.queued { background: #e8f0fe; border-color: #aecbfa; }
.state.completed { background: #e6f4ea; border-color: #a8dab5; }
.state.failed { background: #fce8e6; border-color: #f6aea9; }
.state.interrupted { background: #fef7e0; border-color: #fde293; }
form.inline { display: flex; flex-wrap: wrap; gap: 14px; align-items: end; }
label { font-size: 13px; color: var(--muted); display: block; }
input, select, textarea, button { font: inherit; font-size: 13px; }
input[type=text], input[type=number], select, textarea { padding: 5px 7px; border: 1px solid var(--line);
  border-radius: 5px; background: #fff; color: var(--fg); }
textarea { width: 100%; font-family: ui-monospace, monospace; font-size: 12px; }
button { padding: 6px 14px; border-radius: 5px; border: 1px solid var(--accent); background: var(--accent);
  color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
.field { margin-bottom: 10px; }
label.choice { display: inline-block; margin-right: 12px; }
.run-options { display: flex; gap: 14px; flex-wrap: wrap; align-items: end; }
.field.invalid input, .field.invalid select, .field.invalid textarea { border-color: var(--bad);
  background: #fff6f5; }
.field-error { color: var(--bad); font-size: 12px; margin-top: 3px; }
.saved-note { background: #e6f4ea; border: 1px solid #a8dab5; border-radius: 6px; padding: 6px 10px; }
.bar { height: 10px; background: var(--line); border-radius: 5px; overflow: hidden; min-width: 120px; }
.bar > span { display: block; height: 100%; background: var(--accent); }
.kpis { display: flex; gap: 14px; flex-wrap: wrap; }
.kpi { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 120px; }
.kpi b { display: block; font-size: 20px; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.tabs a { margin-right: 14px; }
.log { font-family: ui-monospace, monospace; font-size: 12px; max-height: 260px; overflow: auto;
  background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; }
/* Chat: the conversation scrolls inside its box, between the agent choice and the input. */
form.chat { display: flex; flex-direction: column; height: calc(100vh - 190px); min-height: 320px; }
.chat-log { flex: 1; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px;
  padding: 4px 10px; margin: 4px 0 10px; }
.chat-choices { display: flex; gap: 16px; flex-wrap: wrap; }
.chat-input { display: flex; gap: 12px; align-items: start; }
.chat-input .field { margin-bottom: 0; }
.msg { border-left: 3px solid var(--line); padding: 4px 10px; margin: 8px 0; }
.msg > b { font-size: 13px; }
.msg.user { border-color: var(--accent); } .msg.assistant { border-color: var(--ok); }
.msg.tool { border-color: var(--warn); }
.sim { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 6px; margin-left: 4px;
  border-radius: 8px; background: #fef7e0; border: 1px solid #fde293; color: #7a5300; }
p.sim-note { background: #fef7e0; border: 1px solid #fde293; border-radius: 6px; padding: 6px 10px; }
.splitbar { display: flex; height: 18px; border-radius: 4px; overflow: hidden; }
.splitbar span { display: block; height: 100%; }
a { color: var(--accent); }
`;

/**
 * A complete page.
 *
 * @param ctx Workbench context (navigation).
 * @param options See {@linkcode PageOptions}.
 * @returns HTML text.
 */
export function page(ctx: WorkbenchContext, options: PageOptions): Html {
  const start = options.script === undefined
    ? ""
    : html`<script type="module">window.workbench.${raw(options.script)}();</script>`;
  // deno-fmt-ignore: the document starts with its doctype
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · mcpmeter workbench</title>
<link rel="stylesheet" href="/assets/workbench.css">
<script src="/assets/workbench.js"></script>
</head><body>
${navBar(ctx, options.active)}
<main>
<h1>${options.title}</h1>
${options.body}
</main>
${start}
</body></html>`;
}

/** The header's own styles, for pages that do not load the workbench stylesheet. */
const NAV_STYLES = `
body { margin-top: 0; }
header.wb-nav { background: #fff; border-bottom: 1px solid #d9dee7; padding: 0 24px; display: flex;
  align-items: center; gap: 24px; height: 52px; position: sticky; top: 0; z-index: 20;
  font: 14px system-ui, sans-serif; color: #1d2430; margin: 0 calc(50% - 50vw) 12px;
  box-sizing: border-box; }
header.wb-nav .brand { font-weight: 700; }
header.wb-nav nav a { color: #5b6575; text-decoration: none; margin-right: 18px; padding: 16px 0; }
header.wb-nav nav a.active { color: #1d2430; border-bottom: 2px solid #2156c9; }
@media print { header.wb-nav { display: none; } }
`;

/**
 * The header with every feature's navigation link.
 *
 * @param ctx Workbench context (navigation).
 * @param active `href` of the active entry.
 * @returns The `<header>` element.
 */
export function navBar(ctx: WorkbenchContext, active: string): Html {
  const links = ctx.nav.map((n) =>
    html`<a href="${n.href}" class="${n.href === active ? "active" : ""}">${n.title}</a>`
  );
  return html`<header class="wb-nav"><span class="brand">mcpmeter</span><nav>${links}</nav></header>`;
}

/**
 * A page rendered elsewhere as a whole document (a dashboard, a report, a comparison) with the
 * workbench's navigation bar put at the top of its body, and an optional line under it.
 *
 * @param ctx Workbench context (navigation).
 * @param active `href` of the active entry.
 * @param document The complete HTML document.
 * @param below HTML shown under the bar (a back link, say).
 * @returns The document with the bar.
 */
export function withNav(
  ctx: WorkbenchContext,
  active: string,
  document: string,
  below: Html | string = "",
): string {
  const bar = html`<style>${raw(NAV_STYLES)}</style>${navBar(ctx, active)}${
    below === ""
      ? ""
      : html`<div class="no-print" style="font:14px system-ui;margin:8px 16px">${
        typeof below === "string" ? raw(below) : below
      }</div>`
  }`;
  const at = /<body[^>]*>/.exec(document);
  if (at === null) return `${bar}${document}`;
  const end = at.index + at[0].length;
  return `${document.slice(0, end)}\n${bar}${document.slice(end)}`;
}

/**
 * The page a browser gets when a page route fails: the navigation, a title by status and the
 * one-line message, with a link home.
 *
 * @param ctx Workbench context (navigation).
 * @param status HTTP status (404 "Not found", 5xx "Something went wrong", else "Cannot show
 *   this").
 * @param message The error's one line (escaped here).
 * @returns HTML text.
 */
export function errorPage(ctx: WorkbenchContext, status: number, message: string): Html {
  const title = status === 404
    ? "Not found"
    : status >= 500
    ? "Something went wrong"
    : "Cannot show this";
  return page(ctx, {
    title,
    active: "",
    body: html`<p class="field-error" role="alert">${message}</p>
<p><a href="/">Back to the workbench</a></p>`,
  });
}

/** What "simulated" means, wherever a simulated USD figure is shown. */
export const SIMULATED_NOTE =
  "A scripted model answered (no provider was called): USD figures are what its pricing would charge, not a bill.";

/**
 * The `simulated` tag put beside a USD figure of a run that used a simulated model.
 *
 * @param simulated Whether the figure is simulated.
 * @returns The tag, or nothing.
 */
export function simulatedTag(simulated: boolean): Html | "" {
  return simulated ? html`<span class="sim" title="${SIMULATED_NOTE}">simulated</span>` : "";
}

/**
 * A state badge.
 *
 * @param state Run state.
 * @returns HTML.
 */
export function stateBadge(state: string): Html {
  return html`<span class="state ${state}" data-state="${state}">${state}</span>`;
}
