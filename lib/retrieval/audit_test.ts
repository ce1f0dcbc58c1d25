import assert from "node:assert/strict";
import { auditGoldenSet, auditWarning, contentWords } from "./audit.ts";
import { parseMcpproxyGolden } from "./golden.ts";

const tool = (server: string, name: string, description: string) => ({
  id: `${server}:${name}`,
  server,
  name,
  description,
});

const TOOLS = [
  tool("gh", "create_issue", "Create a new issue in a GitHub repository"),
  tool("gl", "create_issue", "Open an issue in a GitLab project"),
  tool("fs", "readTextFile", "Read the complete contents of a file as text"),
  tool("cal", "list-events", "List calendar events in a date range"),
];

const golden = (queries: unknown[]) =>
  parseMcpproxyGolden(JSON.stringify({ queries }), { id: "set.test" });

Deno.test("contentWords() splits identifiers, lower-cases, drops stop words and repeats", () => {
  assert.deepEqual(contentWords("readTextFile of the read-notes"), [
    "read",
    "text",
    "file",
    "notes",
  ]);
  assert.deepEqual(contentWords("the of and"), []);
});

Deno.test("auditGoldenSet() computes overlap, name hits, shared names and counts by hand", () => {
  const set = golden([
    // words: report, bug, repository → doc(gh) has repository: 1/3; name create/issue: no hit.
    {
      id: "q1",
      query: "report a bug in my repository",
      labels: [{ tool_id: "gh:create_issue", relevance: 2 }, {
        tool_id: "gl:create_issue",
        relevance: 0,
      }],
    },
    // words: show, text, notes, file → doc has text, file: 2/4; name read/text/file: hit.
    {
      id: "q2",
      query: "show the text of my notes file",
      labels: [{ tool_id: "fs:readTextFile", relevance: 2 }],
    },
    // words: meetings, week → 0/2, no hit; two best tools, max over them (both 0).
    {
      id: "q3",
      query: "meetings this week",
      labels: [
        { tool_id: "cal:list-events", relevance: 2 },
        { tool_id: "gh:create_issue", relevance: 1 },
      ],
    },
    // words: open, issue, gitlab → gl doc has open, issue, gitlab: 3/3; name hit (issue).
    {
      id: "q4",
      query: "open an issue on GitLab",
      labels: [{ tool_id: "gl:create_issue", relevance: 2 }, {
        tool_id: "gh:create_issue",
        relevance: 1,
      }],
    },
    // No relevance-2 label: skipped, but its labels count in the grades.
    { id: "q5", query: "anything", labels: [{ tool_id: "fs:readTextFile", relevance: 1 }] },
    // Only stop words: skipped.
    { id: "q6", query: "what is it", labels: [{ tool_id: "fs:readTextFile", relevance: 2 }] },
  ]);
  const audit = auditGoldenSet(set, { id: "c", tools: TOOLS });
  assert.equal(audit.queryCount, 6);
  assert.equal(audit.auditedQueryCount, 4);
  // (1/3 + 2/4 + 0 + 1) / 4
  assert.ok(Math.abs(audit.lexicalOverlap - (1 / 3 + 0.5 + 0 + 1) / 4) < 1e-12);
  assert.equal(audit.nameHitRate, 2 / 4);
  // q1 and q4: create_issue exists on gh and gl.
  assert.equal(audit.sharedNameRate, 2 / 4);
  assert.deepEqual(audit.grades, { "0": 1, "1": 3, "2": 5 });
  assert.deepEqual(audit.queriesPerServer, { cal: 1, fs: 1, gh: 1, gl: 1 });
  assert.equal(audit.serverCount, 4);
  assert.deepEqual(audit.skipped, { "no content word": 1, "no relevance-2 label": 1 });
  assert.equal(audit.easy, false);
  assert.equal(auditWarning(audit), undefined);
});

Deno.test("auditGoldenSet() flags a set whose name hit rate is above one half", () => {
  const set = golden([
    { id: "a", query: "create an issue", labels: [{ tool_id: "gh:create_issue", relevance: 2 }] },
    { id: "b", query: "read a text file", labels: [{ tool_id: "fs:readTextFile", relevance: 2 }] },
    { id: "c", query: "what's on today", labels: [{ tool_id: "cal:list-events", relevance: 2 }] },
    { id: "d", query: "missing tool", labels: [{ tool_id: "zz:gone", relevance: 2 }] },
  ]);
  const audit = auditGoldenSet(set, { id: "c", tools: TOOLS });
  assert.equal(audit.auditedQueryCount, 3);
  assert.equal(audit.nameHitRate, 2 / 3);
  assert.deepEqual(audit.skipped, { "relevance-2 tool not in the corpus": 1 });
  assert.equal(audit.easy, true);
  assert.match(auditWarning(audit)!, /set\.test: 66\.7% .* overstate/);
});

Deno.test("auditGoldenSet() gives zeros, not NaN, when nothing can be audited", () => {
  const set = golden([{ id: "a", query: "x", labels: [{ tool_id: "zz:gone", relevance: 2 }] }]);
  const audit = auditGoldenSet(set, { id: "c", tools: TOOLS });
  assert.equal(audit.auditedQueryCount, 0);
  assert.equal(audit.lexicalOverlap, 0);
  assert.equal(audit.nameHitRate, 0);
  assert.equal(audit.sharedNameRate, 0);
});
