import assert from "node:assert/strict";
import { SCALE_BEGIN, SCALE_END, scaleSection, withScaleSection } from "./scale.ts";

const MACHINE = {
  cpu: "AMD EPYC",
  cores: 2,
  memoryGib: 24,
  deno: "Deno 2.9.6 (V8 15.0)",
  commit: "abc1234",
  date: "2026-12-06",
};

Deno.test("scaleSection: the machine, the load range and one row per bench process", () => {
  const text = scaleSection(
    [
      {
        label: "default bench",
        tools: 1389,
        wallSeconds: 3.04,
        peakRssMb: 255.6,
        exitCode: 0,
        loadAverage: 1.5,
      },
      {
        label: "40000 tools",
        tools: 40000,
        wallSeconds: 19.96,
        peakRssMb: null,
        exitCode: 1,
        loadAverage: 0.25,
      },
    ],
    MACHINE,
    1,
  );
  assert.ok(text.startsWith(`${SCALE_BEGIN}\n`) && text.endsWith(`${SCALE_END}\n`));
  assert.match(text, /on 2 cores \(AMD EPYC, 24 GiB\), Deno 2\.9\.6/);
  assert.match(text, /load average was 0\.3-1\.5/);
  assert.match(text, /\| default bench \| 1389 \| 3\.0 \| 256 \| 0 \|/);
  assert.match(text, /\| 40000 tools \| 40000 \| 20\.0 \| n\/a \| 1 \|/);
});

Deno.test("withScaleSection replaces the section in place, appends it once, and refuses an open one", () => {
  const section = `${SCALE_BEGIN}\nnew\n${SCALE_END}\n`;
  const doc = `# P\n\nbefore\n\n${SCALE_BEGIN}\nold\n${SCALE_END}\n\nafter\n`;
  assert.equal(withScaleSection(doc, section), `# P\n\nbefore\n\n${section}\nafter\n`);
  const appended = withScaleSection("# P\n", section);
  assert.equal(appended, `# P\n\n${section}`);
  assert.equal(withScaleSection(appended, section), appended);
  assert.throws(() => withScaleSection(`${SCALE_BEGIN}\nold\n`, section), /has no/);
});
