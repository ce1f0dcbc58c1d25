import assert from "node:assert/strict";
import { sdkPackages } from "./sdk.ts";

Deno.test("sdkPackages() names the installed v2 client and the v1 line of the stdio transport", async () => {
  // The versions the installed packages declare, read from their package.json files.
  const version = async (dir: string) =>
    JSON.parse(
      await Deno.readTextFile(
        new URL(`../../node_modules/@modelcontextprotocol/${dir}/package.json`, import.meta.url),
      ),
    ).version;
  assert.deepEqual(sdkPackages(), {
    client: `@modelcontextprotocol/client@${await version("client")}`,
    stdioTransport: `@modelcontextprotocol/sdk@${await version("sdk")}`,
  });
  assert.match(sdkPackages().client, /^@modelcontextprotocol\/client@2\./);
});
