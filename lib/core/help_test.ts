import assert from "node:assert/strict";
import { HELP_LAYOUT, helpOption, helpText } from "./help.ts";

Deno.test("helpText() writes usage, purpose, about, options with -h, exit codes, notes", () => {
  const text = helpText({
    usage: ["gate --baseline RUN [options]", "gate --baseline-report FILE [options]"],
    purpose: "A gate.",
    about: "More words.\n",
    options: "  --alpha A     level\n",
    exitCodes: "0 pass, 1 fail",
    notes: "An example.",
  });
  assert.equal(
    text,
    [
      "Usage: deno task gate --baseline RUN [options]",
      "       deno task gate --baseline-report FILE [options]",
      "",
      "A gate.",
      "",
      "More words.",
      "",
      "Options:",
      "  --alpha A     level",
      "  -h, --help    show this help",
      "",
      "Exit codes: 0 pass, 1 fail",
      "",
      "An example.",
    ].join("\n"),
  );
  assert.match(text, HELP_LAYOUT);
});

Deno.test("HELP_LAYOUT refuses a help without a purpose line, options or exit codes", () => {
  const ok = helpText({ usage: "x", purpose: "P.", options: "  --a  b", exitCodes: "0 ok" });
  assert.match(ok, HELP_LAYOUT);
  assert.doesNotMatch(ok.replace("P.\n\n", ""), HELP_LAYOUT);
  assert.doesNotMatch(ok.replace("Exit codes: 0 ok", ""), HELP_LAYOUT);
  assert.doesNotMatch(ok.replace("Options:\n", ""), HELP_LAYOUT);
  assert.doesNotMatch("mcpmeter x — a title\n\n" + ok, HELP_LAYOUT);
  assert.throws(() => helpText({ usage: "x", purpose: "two\nlines", options: "", exitCodes: "0" }));
});

Deno.test("helpOption() puts its words in the column most option lines use, two spaces at least", () => {
  // two options at column 25, one (a long flag) at 31, a continuation line and a flag alone
  const options = [
    "  --config FILE          a file",
    "                         more about it",
    "  --write-baseline FILE  write it",
    "  --sent-form [CLIENT=]FORMAT",
    "  --max-increase-of-all L  growth",
  ].join("\n");
  assert.equal(helpOption(options), "  -h, --help             show this help");
  assert.equal(helpOption("  -q  quiet"), "  -h, --help  show this help");
  assert.equal(helpOption(""), "  -h, --help  show this help");
});
