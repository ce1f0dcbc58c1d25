/**
 * A scripted "model" for end-to-end tests of the fixture suites: it reads the conversation
 * from the real wire request (Anthropic Messages, OpenAI Chat Completions or Responses), calls
 * the MCP tools a sensible agent would, and computes its answer from the tool results the real
 * servers returned. Behind a provider tool search it searches for a tool before its first call
 * and answers the search as the hosted search would (mcpmeter's emulations). Usage is
 * deterministic: turn t (0-based) reports input 100 + 10·t, output 20, cache read 50 (cache
 * write 5 on Anthropic).
 *
 * Private to tests and benches.
 *
 * @module
 */

import { JUDGE_SYSTEM_PROMPT } from "./criteria.ts";
import {
  messageReply,
  type ReceivedRequest,
  type ScriptedMessage,
  type ScriptedReply,
  type ScriptedSearch,
  type ScriptedToolCall,
} from "./_scripted_model_server.ts";
import {
  anthropicBm25Entry,
  openaiSearchEntry,
  regexPatternFor,
  searchByPattern,
} from "../retrieval/hosted_emulation.ts";
import type { RetrievalDoc, Retriever } from "../retrieval/types.ts";

/** A provider-neutral view of a request, from its last user question on. */
interface View {
  readonly system: string;
  readonly question: string;
  /** Tool results so far, oldest first. */
  readonly results: readonly string[];
  /** Name of the tool each result answers (from the call id, `call_<turn>_<name>`). */
  readonly resultTools: readonly string[];
  /** Names of the tools offered in this request. */
  readonly offered: readonly string[];
  readonly turn: number;
}

const toolOfId = (id: string) => id.replace(/^call_\d+_/, "");

function view(req: ReceivedRequest): View {
  const results: string[] = [];
  const resultTools: string[] = [];
  let question = "";
  let system = "";
  let turn = 0;
  const msgs = (req.body.messages ?? []) as Record<string, unknown>[];
  const offered = flatTools(req.body.tools).map((t) =>
    String(t.name ?? (t.function as { name?: string } | undefined)?.name ?? "")
  );
  if (req.provider === "openai-responses") {
    system = String(req.body.instructions ?? "");
    let outputRun = false;
    for (const item of (req.body.input ?? []) as Record<string, unknown>[]) {
      if (item.role === "user") {
        question = String(item.content);
        results.length = 0;
        resultTools.length = 0;
        turn = 0;
        outputRun = false;
      } else if (item.type === "function_call_output") {
        results.push(String(item.output));
        resultTools.push(toolOfId(String(item.call_id)));
        outputRun = false;
      } else if (!outputRun) {
        // The items of one model turn (message, function calls, tool searches) come together.
        turn += 1;
        outputRun = true;
      }
    }
  } else if (req.provider === "anthropic") {
    system = String(req.body.system ?? "");
    for (const m of msgs) {
      if (m.role === "assistant") turn += 1;
      if (m.role === "user" && typeof m.content === "string") {
        // A new question (chat keeps earlier exchanges): plan from here on.
        question = m.content;
        results.length = 0;
        resultTools.length = 0;
        turn = 0;
      }
      if (m.role === "user" && Array.isArray(m.content)) {
        for (const b of m.content as { type: string; content: string; tool_use_id: string }[]) {
          if (b.type === "tool_result") {
            results.push(String(b.content));
            resultTools.push(toolOfId(b.tool_use_id));
          }
        }
      }
    }
  } else {
    for (const m of msgs) {
      if (m.role === "system") system = String(m.content);
      if (m.role === "assistant") turn += 1;
      if (m.role === "user") {
        question = String(m.content);
        results.length = 0;
        resultTools.length = 0;
        turn = 0;
      }
      if (m.role === "tool") {
        results.push(String(m.content));
        resultTools.push(toolOfId(String(m.tool_call_id)));
      }
    }
  }
  return { system, question, results, resultTools, offered, turn };
}

/**
 * Behind a discovery proxy (`call_tool` offered) or under code execution (`run_code`): plan as
 * with direct tools, over the results of the calls that reached a tool; before a tool is first
 * used, look it up with `retrieve_tools` and take the `server:tool` name from the answer; then
 * call it through `call_tool`, or through a one-call `run_code` program that prints its result.
 */
function decideIndirect(v: View, via: "call_tool" | "run_code"): ScriptedMessage {
  const reached = v.results.filter((_, i) => v.resultTools[i] !== "retrieve_tools");
  const plan = decide({ ...v, results: reached });
  if (plan.toolCalls === undefined) return plan;
  const found = new Map<string, string>();
  v.results.forEach((text, i) => {
    if (v.resultTools[i] !== "retrieve_tools") return;
    for (const t of (JSON.parse(text) as { tools: { name: string }[] }).tools) {
      const bare = t.name.slice(t.name.indexOf(":") + 1);
      if (!found.has(bare)) found.set(bare, t.name);
    }
  });
  const missing = plan.toolCalls.find((c) => !found.has(c.name));
  if (missing !== undefined) {
    const query = missing.name.replace(/[-_]/g, " ");
    return { toolCalls: [call("retrieve_tools", { query, limit: 5 }, v.turn)] };
  }
  return {
    toolCalls: plan.toolCalls.map((c) =>
      via === "call_tool"
        ? call("call_tool", { name: found.get(c.name)!, arguments: c.input }, v.turn)
        : call("run_code", {
          code: `console.log(await tools.call(${JSON.stringify(found.get(c.name))}, ${
            JSON.stringify(c.input)
          }));`,
        }, v.turn)
    ),
  };
}

const call = (name: string, input: Record<string, unknown>, turn: number): ScriptedToolCall => ({
  id: `call_${turn}_${name}`,
  name,
  input,
});

function usage(provider: string, turn: number) {
  return provider === "anthropic"
    ? { input: 100 + 10 * turn, output: 20, cacheRead: 50, cacheWrite: 5 }
    : { input: 100 + 10 * turn, output: 20, cacheRead: 50 };
}

function allowedDir(text: string): string {
  // "Allowed directories:\n/tmp/x/fs"
  return text.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("/"))[0] ?? "";
}

function decide(v: View): ScriptedMessage {
  const q = v.question;
  const r = v.results;
  const t = v.turn;
  const answer = (text: string) => ({ text });
  const tools = (...calls: ScriptedToolCall[]) => ({ toolCalls: calls });
  if (/notes\/todo\.txt/.test(q)) {
    if (r.length === 0) return tools(call("list_allowed_directories", {}, t));
    if (r.length === 1) {
      return tools(call("read_text_file", { path: `${allowedDir(r[0])}/notes/todo.txt` }, t));
    }
    return answer(String(r[1].trimEnd().split("\n").length));
  }
  if (/expenses\.csv/.test(q)) {
    if (r.length === 0) return tools(call("list_allowed_directories", {}, t));
    if (r.length === 1) {
      return tools(call("read_text_file", { path: `${allowedDir(r[0])}/data/expenses.csv` }, t));
    }
    const rows = r[1].trim().split("\n").slice(1);
    const sum = rows.reduce((s, row) => s + Number(row.split(",")[2]), 0);
    return answer(sum.toFixed(2));
  }
  if (/notes folder/.test(q)) {
    if (r.length === 0) return tools(call("list_allowed_directories", {}, t));
    if (r.length === 1) {
      return tools(call("list_directory", { path: `${allowedDir(r[0])}/notes` }, t));
    }
    const names = r[1].split("\n").map((l) => l.replace(/^\[(FILE|DIR)\]\s*/, "").trim()).filter(
      Boolean,
    );
    return answer(names.sort().join(", "));
  }
  if (/Alice works at|entities are in|What does Bob do/.test(q)) {
    if (r.length === 0) return tools(call("read_graph", {}, t));
    const graph = JSON.parse(r[0]) as {
      entities: { name: string; observations: string[] }[];
      relations: { from: string; to: string; relationType: string }[];
    };
    if (/entities are in/.test(q)) return answer(String(graph.entities.length));
    const person = /Alice/.test(q) ? "Alice" : "Bob";
    const employer = graph.relations.find((x) =>
      x.from === person && x.relationType === "works_at"
    )!.to;
    const entity = (name: string) => graph.entities.find((e) => e.name === name)!;
    if (person === "Alice") {
      const hq = entity(employer).observations.find((o) => o.startsWith("headquartered in "))!;
      return answer(hq.replace("headquartered in ", ""));
    }
    return answer(`Bob is a ${entity("Bob").observations[0]} at ${employer}.`);
  }
  if (/add 17 and 25/.test(q)) {
    if (r.length === 0) return tools(call("get-sum", { a: 17, b: 25 }, t));
    return answer(/is (-?\d+(\.\d+)?)/.exec(r[0])![1]);
  }
  if (/Echo the message/.test(q)) {
    if (r.length === 0) return tools(call("echo", { message: "mcpmeter" }, t));
    return answer(`The tool returned: ${r[0]}`);
  }
  if (/orders are in the shop/.test(q)) {
    if (r.length === 0) {
      return tools(call("read_query", { query: "SELECT COUNT(*) AS n FROM orders" }, t));
    }
    return answer(String((JSON.parse(r[0]) as { n: number }[])[0].n));
  }
  if (/highest total order value/.test(q)) {
    if (r.length === 0) {
      return tools(call("read_query", {
        query:
          "SELECT c.name, ROUND(SUM(o.total_usd), 2) AS revenue FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY revenue DESC LIMIT 1",
      }, t));
    }
    const top = (JSON.parse(r[0]) as { name: string; revenue: number }[])[0];
    return answer(`${top.name} (${top.revenue.toFixed(2)} USD)`);
  }
  if (/tables does the shop database/.test(q)) {
    if (r.length === 0) return tools(call("list_tables", {}, t));
    return answer((JSON.parse(r[0]) as { name: string }[]).map((x) => x.name).join(", "));
  }
  return answer("I do not know.");
}

/** A request's tools with the functions of OpenAI namespaces brought to the top level. */
function flatTools(tools: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of (Array.isArray(tools) ? tools : []) as Record<string, unknown>[]) {
    if (t?.type === "namespace") {
      for (const f of flatTools(t.tools)) out.push({ ...f, namespace: t.name });
    } else out.push(t);
  }
  return out;
}

/** The provider tool search a request offers, if any: its kind and the deferred tools. */
interface SearchView {
  readonly kind: "anthropic_bm25" | "anthropic_regex" | "openai";
  /** Deferred tools not yet loaded by an earlier search (definitions as in the request). */
  readonly unloaded: readonly Record<string, unknown>[];
  /** The namespace entries of the request (OpenAI), by name. */
  readonly namespaces: ReadonlyMap<string, Record<string, unknown>>;
}

function searchView(req: ReceivedRequest): SearchView | undefined {
  const tools = (req.body.tools ?? []) as Record<string, unknown>[];
  const flat = flatTools(tools);
  let kind: SearchView["kind"] | undefined;
  if (tools.some((t) => t.type === "tool_search_tool_bm25_20251119")) kind = "anthropic_bm25";
  if (tools.some((t) => t.type === "tool_search_tool_regex_20251119")) kind = "anthropic_regex";
  if (tools.some((t) => t.type === "tool_search")) kind = "openai";
  if (kind === undefined) return undefined;
  const loaded = new Set<string>();
  if (req.provider === "anthropic") {
    for (const m of (req.body.messages ?? []) as Record<string, unknown>[]) {
      if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
      for (const b of m.content as Record<string, unknown>[]) {
        const c = b.content as { tool_references?: { tool_name: string }[] } | undefined;
        if (b.type === "tool_search_tool_result") {
          for (const r of c?.tool_references ?? []) loaded.add(r.tool_name);
        }
      }
    }
  } else {
    for (const item of (req.body.input ?? []) as Record<string, unknown>[]) {
      if (item.type === "tool_search_output") {
        for (const t of flatTools(item.tools)) loaded.add(String(t.name));
      }
    }
  }
  return {
    kind,
    unloaded: flat.filter((t) => t.defer_loading === true && !loaded.has(String(t.name))),
    namespaces: new Map(
      tools.filter((t) => t.type === "namespace").map((t) => [String(t.name), t]),
    ),
  };
}

/**
 * The hosted search a provider runs, emulated (lib/retrieval's emulations over the deferred
 * definitions of the request): the names found for `query`, best first, at most 5.
 */
function hostedSearch(
  sv: SearchView,
  query: string,
): { input: Record<string, unknown>; names: string[] } {
  const docs: RetrievalDoc[] = sv.unloaded.map((t) => ({
    id: String(t.name),
    name: String(t.name),
    server: String(t.namespace ?? ""),
    description: String(t.description ?? ""),
    params: JSON.stringify(t.input_schema ?? t.parameters ?? {}),
  }));
  if (sv.kind === "anthropic_regex") {
    const pattern = regexPatternFor(query) ?? query;
    return { input: { query: pattern }, names: searchByPattern(docs, pattern).map((h) => h.id) };
  }
  // wink's BM25 needs three documents; fewer are matched by their words.
  const names = docs.length < 3
    ? searchByPattern(docs, regexPatternFor(query) ?? query).map((h) => h.id)
    : ((sv.kind === "openai" ? openaiSearchEntry : anthropicBm25Entry)
      .create(docs, { seed: 0 }) as Retriever).search(query, 5).map((h) => h.id);
  return { input: { query }, names };
}

/**
 * Under a provider tool search: a planned call of a tool not loaded yet is preceded, in the same
 * reply, by the search a model would make for it (its name in words); the calls go ahead only
 * when the search found the tool, else the model says it could not find one. OpenAI calls carry
 * their function's namespace.
 */
function withSearches(req: ReceivedRequest, sv: SearchView, m: ScriptedMessage): ScriptedMessage {
  const calls = m.toolCalls ?? [];
  const unloaded = new Map(sv.unloaded.map((t) => [String(t.name), t]));
  const searches: ScriptedSearch[] = [];
  const found = new Set<string>();
  for (const c of calls) {
    if (!unloaded.has(c.name) || found.has(c.name)) continue;
    const { input, names } = hostedSearch(sv, c.name.replace(/[-_]/g, " "));
    for (const n of names) found.add(n);
    const loaded = names.map((n) => unloaded.get(n)!);
    searches.push({
      id: `srvtoolu_${req.index}_${searches.length}`,
      input,
      tools: names,
      ...(sv.kind === "openai" ? { loaded: namespaced(sv, loaded) } : {}),
    });
  }
  const missing = calls.find((c) => unloaded.has(c.name) && !found.has(c.name));
  if (missing !== undefined) {
    return { searches, text: `I could not find a tool to ${missing.name.replace(/[-_]/g, " ")}.` };
  }
  const flat = new Map(flatTools(req.body.tools).map((t) => [String(t.name), t]));
  return {
    ...m,
    ...(searches.length === 0 ? {} : { searches }),
    toolCalls: calls.map((c) => {
      const ns = flat.get(c.name)?.namespace;
      return ns === undefined ? c : { ...c, namespace: String(ns) };
    }),
  };
}

/** Loaded definitions as a `tool_search_output` lists them: functions inside their namespace. */
function namespaced(sv: SearchView, loaded: readonly Record<string, unknown>[]): unknown[] {
  const out = new Map<string, Record<string, unknown>[]>();
  const top: unknown[] = [];
  for (const t of loaded) {
    const { namespace, ...fn } = t;
    if (namespace === undefined) top.push(fn);
    else out.set(String(namespace), [...(out.get(String(namespace)) ?? []), fn]);
  }
  return [
    ...top,
    ...[...out].map(([name, tools]) => {
      const ns = sv.namespaces.get(name) ?? {};
      return { type: "namespace", name, description: ns.description ?? "", tools };
    }),
  ];
}

/**
 * Replies to one request of the fixture suites (agent turns and judge calls).
 *
 * @param req The received request.
 * @returns A 200 reply in the request's wire format.
 */
export function fixturePolicy(req: ReceivedRequest): ScriptedReply {
  const v = view(req);
  if (v.system === JUDGE_SYSTEM_PROMPT) {
    // A keyword judge that reads the answer only (the rubric names the same words): it passes
    // any answer that mentions both, so a negation fools it and a paraphrase fails.
    const answer = v.question.split("\n\nAnswer:\n").at(-1) ?? "";
    const pass = /product manager/i.test(answer) && /Globex/.test(answer);
    return messageReply(req.provider, {
      text: JSON.stringify({ pass, reasoning: pass ? "role and employer match" : "missing facts" }),
      usage: { input: 300, output: 15 },
    });
  }
  const planned = v.offered.includes("call_tool")
    ? decideIndirect(v, "call_tool")
    : v.offered.includes("run_code")
    ? decideIndirect(v, "run_code")
    : decide(v);
  const sv = searchView(req);
  const message = sv === undefined ? planned : withSearches(req, sv, planned);
  return messageReply(req.provider, { ...message, usage: usage(req.provider, v.turn) });
}
