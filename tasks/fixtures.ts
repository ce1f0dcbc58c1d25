// deno task fixtures: verify (default) or rewrite (--write) fixtures/manifest.json,
// the sha256 and byte size of every frozen input with its source and the
// command that regenerates it (lib/flows/fixtures.ts; sources in FIXTURE_SOURCES there).
import { fromRoot, helpText, parseFlags, runMain } from "./_cli.ts";
import { checkFixtures, FIXTURE_MANIFEST } from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "fixtures [--write]",
  purpose: "Check the sha256 and size of every frozen input against fixtures/manifest.json.",
  about: `Compares every file under fixtures/ with fixtures/manifest.json and lists files that
changed, appeared or disappeared.`,
  options: `  --write             record the current files (only together with the change that
                      regenerated them)`,
  exitCodes: "0 every file matches (or --write wrote the manifest), 1 a file differs",
});

async function main(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    write: { type: "boolean" },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const { diff, files } = await checkFixtures(fromRoot("fixtures"), values.write ?? false);
  if (values.write) {
    console.log(`recorded ${files} fixture files in fixtures/${FIXTURE_MANIFEST}`);
    return 0;
  }
  if (diff.length > 0) {
    console.error(diff.join("\n"));
    console.error(`${diff.length} fixture file(s) differ from fixtures/${FIXTURE_MANIFEST}`);
    return 1;
  }
  console.log(`${files} fixture files match fixtures/${FIXTURE_MANIFEST}`);
  return 0;
}

if (import.meta.main) await runMain("fixtures", () => main(Deno.args));
