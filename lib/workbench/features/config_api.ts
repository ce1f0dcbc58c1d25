/**
 * Config API: `GET/PUT /api/config/{agents|models|servers|tool-prices}`,
 * `POST /api/config/agents` (a new agent), `PUT/DELETE /api/config/agents/{id}`,
 * `POST /api/config/servers/import` (servers pasted from a Claude Desktop, Cursor or VS Code
 * config), `GET/PUT /api/config/prompts/{agentId}`. Every write is validated before anything is
 * written; a refused one answers 400 with the field.
 *
 * @module
 */

import type { WorkbenchFeature } from "../app.ts";
import { WorkbenchError } from "../_paths.ts";
import { readJsonBody } from "../http.ts";
import type { ConfigKind } from "../config_store.ts";
import { serversFromPaste } from "../server_import.ts";

const KINDS: readonly ConfigKind[] = ["agents", "models", "servers", "tool-prices"];

function kindOf(text: string): ConfigKind {
  if (!KINDS.includes(text as ConfigKind)) {
    throw new WorkbenchError(
      404,
      `no config document "${text}" (known: ${KINDS.join(", ")}, prompts/{agentId})`,
    );
  }
  return text as ConfigKind;
}

/** The config API feature. */
export const configApi: WorkbenchFeature = {
  id: "config-api",
  register(app, ctx) {
    app.get(
      "/api/config/prompts/:agentId",
      async (c) => c.json(await ctx.config.getPrompt(c.req.param("agentId"))),
    );
    app.put("/api/config/prompts/:agentId", async (c) => {
      const body = await readJsonBody(c) as { content?: unknown } | null;
      await ctx.config.putPrompt(c.req.param("agentId"), body?.content);
      return c.json(await ctx.config.getPrompt(c.req.param("agentId")));
    });
    app.post("/api/config/agents", async (c) => {
      return c.json({ created: await ctx.config.createAgent(await readJsonBody(c)) }, 201);
    });
    app.delete("/api/config/agents/:id", async (c) => {
      await ctx.config.deleteAgent(c.req.param("id"));
      return c.body(null, 204);
    });
    app.post("/api/config/servers/import", async (c) => {
      const body = await readJsonBody(c) as { text?: unknown } | null;
      if (typeof body?.text !== "string") {
        throw new WorkbenchError(400, `field "text" must be the pasted config text`, "text");
      }
      const pasted = serversFromPaste(body.text);
      await ctx.config.addServers(pasted.servers);
      return c.json({
        added: Object.keys(pasted.servers),
        format: pasted.format,
        skipped: pasted.skipped,
        dropped: pasted.dropped,
      }, 201);
    });
    app.put("/api/config/agents/:id", async (c) => {
      await ctx.config.putAgent(c.req.param("id"), await readJsonBody(c));
      return c.json({ saved: c.req.param("id") });
    });
    app.get("/api/config/:kind", async (c) => {
      const kind = kindOf(c.req.param("kind"));
      if (kind === "agents") {
        const entries = await ctx.config.agentEntries();
        return c.json({ agents: entries.map((e) => e.agent), files: entries.map((e) => e.file) });
      }
      return c.json(await ctx.config.getDoc(kind));
    });
    app.put("/api/config/:kind", async (c) => {
      const kind = kindOf(c.req.param("kind"));
      const body = await readJsonBody(c);
      if (kind === "agents") await ctx.config.putAgents(body);
      else await ctx.config.putDoc(kind, body);
      return c.json({ saved: kind });
    });
  },
};
