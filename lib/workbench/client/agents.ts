/**
 * Page controllers of Agents (the New agent form) and an agent's page (its forms save like
 * Config's; Cut a version; Delete).
 *
 * @module
 */

import { $, api, clearErrors, type Json, showError, showRefusal } from "./dom.ts";
import { configPage } from "./config.ts";

/** Agents: creates an agent, blank or copied from another, and opens its page. */
export function agentsPage() {
  const form = $<HTMLFormElement>("#new-agent");
  if (form === null) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const id = $<HTMLInputElement>("[name=id]", form)!.value.trim();
    const from = $<HTMLSelectElement>("[name=from]", form)!.value;
    if (id === "") return showError(form, "id", "give the new agent an id");
    const config = await api("GET", "/api/config/agents");
    if (!config.ok) return showRefusal(form, config.data);
    const agents = config.data.agents as Json[];
    const models = await api("GET", "/api/config/models");
    const chat = ((models.data.models ?? []) as Json[]).filter((m) => m.kind !== "embedding");
    const source = agents.find((a) => a.id === from);
    const agent: Json = source !== undefined ? { ...source, id } : {
      id,
      description: "",
      model: chat[0]?.id,
      mcpServers: [],
      systemPrompt: "You answer questions using the available tools.",
    };
    const r = await api("POST", "/api/config/agents", agent);
    if (r.ok) location.href = `/agents/${encodeURIComponent(id)}`;
    else showRefusal(form, r.data);
  });
}

/** An agent's page: the forms save through the config API; Cut a version; Delete. */
export function agentPage() {
  configPage();
  const box = $("#versions");
  if (box === null) return;
  const id = box.dataset.agent!;
  const cut = $<HTMLButtonElement>("#cut-version")!;
  cut.addEventListener("click", async () => {
    cut.disabled = true;
    const r = await api("POST", `/api/agents/${encodeURIComponent(id)}/versions`);
    const status = $("#cut-status")!;
    if (r.ok && r.data.created) return location.reload();
    cut.disabled = false;
    status.textContent = r.ok
      ? `nothing to cut: the live configuration equals v${r.data.version}`
      : String(r.data.error);
  });
  $<HTMLButtonElement>("#delete-agent")!.addEventListener("click", async () => {
    if (!confirm(`Delete agent ${id}? Its versions and runs stay.`)) return;
    const r = await api("DELETE", `/api/config/agents/${encodeURIComponent(id)}`);
    if (r.ok) location.href = "/agents";
    else $("#delete-status")!.textContent = String(r.data.error);
  });
}
