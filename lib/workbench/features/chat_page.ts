/**
 * Chat: `POST /api/chat/{sessionId}` `{agentId, message}` answers with a Server-Sent Events
 * stream (`status`, `tool_call`, `tool_result`, `answer`, `usage`, `error`, `done`);
 * `DELETE /api/chat/{sessionId}` ends the session. The Chat page talks to one agent through the
 * same loop as `deno task chat`.
 *
 * @module
 */

import { streamSSE } from "hono/streaming";
import type { WorkbenchFeature } from "../app.ts";
import { WorkbenchError } from "../_paths.ts";
import { readJsonBody } from "../http.ts";
import { html, page } from "../html.ts";
import { chatModelOptions } from "./plans.ts";

/** The chat feature. */
export const chatPage: WorkbenchFeature = {
  id: "chat",
  nav: [{ href: "/chat", title: "Chat", order: 30 }],
  register(app, ctx) {
    app.post("/api/chat/:sessionId", async (c) => {
      const chat = ctx.chat;
      if (chat === undefined) throw new WorkbenchError(503, "chat is not available on this server");
      const body = await readJsonBody(c) as
        | { agentId?: unknown; message?: unknown; model?: unknown }
        | null;
      const sessionId = c.req.param("sessionId");
      // "" (the form's "as configured") and absent both mean the agent's own model.
      const model = body?.model === "" || body?.model === null ? undefined : body?.model;
      return streamSSE(c, async (stream) => {
        const emit = (event: string, data: unknown) =>
          stream.writeSSE({ event, data: JSON.stringify(data) });
        try {
          await chat.send(
            sessionId,
            body?.agentId as string,
            body?.message as string,
            emit,
            model as string | undefined,
          );
        } catch (e) {
          await emit("error", { message: String((e as Error).message).split("\n")[0] });
        }
        await emit("done", {});
      });
    });
    app.delete("/api/chat/:sessionId", async (c) => {
      await ctx.chat?.end(c.req.param("sessionId"));
      return c.body(null, 204);
    });
    app.get("/chat", async (c) => {
      const agents = await ctx.config.loadAgents();
      const options = agents.map((a) =>
        html`<option value="${a.id}">${a.id} (${a.model}, ${a.exposure})</option>`
      );
      const models = await ctx.config.loadModels();
      const simulated = models.filter((m) => m.simulated && m.kind !== "embedding");
      return c.html(page(ctx, {
        title: "Chat",
        active: "/chat",
        body: html`
          <p class="muted">
            One agent, the same loop as <code>deno task chat</code>: its model, servers, exposure mode
            and loop. The conversation is kept until you change agent or model or reload; tool calls
            appear as they happen.${simulated.length === 0 ? "" : html`
              No API key? Pick
                        <code>${simulated[0]
                          .id}</code> under Model: a scripted model (simulated, its USD
                        is not a bill) that needs none.
            `}
          </p>
          <form id="chat-form" class="card chat">
            <div class="chat-choices">
              <div class="field" data-field="agentId">
                <label>Agent <select name="agentId">${options}</select></label>
              </div>
              <div class="field" data-field="model">
                <label>Model <select name="model"><option value="">the agent's own</option>${chatModelOptions(
                  models,
                )}</select></label>
              </div>
            </div>
            <div id="chat-log" class="chat-log" aria-live="polite">
              <p class="muted placeholder">No messages yet.</p>
            </div>
            <div class="chat-input">
              <div class="field" style="flex:1" data-field="message">
                <input type="text" name="message" aria-label="Message" style="width:100%"
                  placeholder="Ask the agent…" autocomplete="off">
              </div>
              <div class="field"><button type="submit">Send</button></div>
            </div>
            <div class="form-error field-error"></div>
          </form>
        `,
        script: "chatPage",
      }));
    });
  },
};
