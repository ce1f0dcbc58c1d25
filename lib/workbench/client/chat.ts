/**
 * Page controller of Chat: sends a message, shows the streamed events (tool calls, results, the
 * answer, usage) as they arrive.
 *
 * @module
 */

import { $, clearErrors, fmtUsd, type Json, readEvents, showError } from "./dom.ts";

/** Adds one message to the chat log (the placeholder goes on the first) and scrolls it into view. */
export function chatMessage(log: HTMLElement, cls: string, title: string, text: string) {
  $(".placeholder", log)?.remove();
  const div = document.createElement("div");
  div.className = `msg ${cls}`;
  const b = document.createElement("b");
  b.textContent = title;
  const pre = document.createElement("pre");
  pre.textContent = text;
  div.append(b, pre);
  log.appendChild(div);
  // The log scrolls, not the page: the header and the input stay where they are.
  log.scrollTop = log.scrollHeight;
  return div;
}

/** Shows one streamed chat event in the log. */
export function chatEvent(log: HTMLElement, agentId: string, event: string, d: Json) {
  const add = (cls: string, title: string, text: string) => chatMessage(log, cls, title, text);
  if (event === "status") add("", "status", String(d.message)).classList.add("muted");
  else if (event === "tool_call") {
    add("tool", `tool call ${d.name} → ${d.tool}`, JSON.stringify(d.args, null, 2))
      .classList.add("tool-call");
  } else if (event === "tool_result") {
    const ms = Math.round(Number(d.ms));
    add("tool", `result of ${d.name}${d.isError ? " (error)" : ""} · ${ms} ms`, String(d.text));
  } else if (event === "answer") add("assistant", agentId, String(d.text)).classList.add("answer");
  else if (event === "error") add("tool", "error", String(d.message)).classList.add("fail");
  else if (event === "usage") {
    const cost = d.costUsd === null
      ? "cost n/a"
      : `${fmtUsd(Number(d.costUsd))}${
        d.simulated ? " (simulated: a scripted model, not a bill)" : ""
      }`;
    add(
      "",
      "usage",
      `${d.iterations} model turn(s); tokens in ${d.inputTokens}, out ${d.outputTokens}; ${cost}; ${
        Math.round(Number(d.wallMs))
      } ms`,
    ).classList.add("muted");
  }
}

/** A new chat session id. */
export function newSessionId(): string {
  return `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** Chat: one session per agent choice; changing agent ends it and clears the conversation. */
export function chatPage() {
  const form = $<HTMLFormElement>("#chat-form");
  const log = $("#chat-log");
  if (form === null || log === null) return;
  let sessionId = newSessionId();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const input = $<HTMLInputElement>("[name=message]", form)!;
    const agentId = $<HTMLSelectElement>("[name=agentId]", form)!.value;
    const model = $<HTMLSelectElement>("[name=model]", form)?.value ?? "";
    const message = input.value;
    if (message.trim() === "") return;
    input.value = "";
    const button = $<HTMLButtonElement>("button", form)!;
    button.disabled = true;
    chatMessage(log, "user", "you", message);
    try {
      const res = await fetch(`/api/chat/${sessionId}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ agentId, message, ...(model === "" ? {} : { model }) }),
      });
      if (!res.ok) {
        const data = await res.json().catch(() => ({ error: res.statusText }));
        showError(form, data.field, String(data.error));
        return;
      }
      const session = sessionId;
      await readEvents(res, (event, d) => {
        // An answer still streaming when the agent was changed belongs to the old conversation.
        if (session === sessionId) chatEvent(log, agentId, event, d);
      });
    } finally {
      button.disabled = false;
      input.focus();
    }
  });
  // Another agent or model starts another conversation.
  const agent = $<HTMLSelectElement>("[name=agentId]", form)!;
  const model = $<HTMLSelectElement>("[name=model]", form);
  const restart = () => {
    fetch(`/api/chat/${sessionId}`, { method: "DELETE" }).catch(() => {});
    sessionId = newSessionId();
    const note = document.createElement("p");
    note.className = "muted placeholder";
    note.textContent = `New conversation with ${agent.value}${
      model && model.value !== "" ? ` through ${model.value}` : ""
    }.`;
    log.replaceChildren(note);
    clearErrors(form);
  };
  agent.addEventListener("change", restart);
  model?.addEventListener("change", restart);
}
