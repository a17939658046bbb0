// A Playwright browser server on the system Chromium, for the remote-browser tests (tests/remote/).
// Usage: node browser_server.js CHROMIUM_PATH
// Prints the ws:// endpoint on one line of stdout, then serves until stdin closes or a signal arrives.
"use strict";
const { chromium } = require("playwright-core");

async function main() {
  const executablePath = process.argv[2] || "/usr/bin/chromium";
  const server = await chromium.launchServer({
    executablePath,
    host: "127.0.0.1",
    port: 0, // a free port, chosen by the OS
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
  process.stdout.write(server.wsEndpoint() + "\n");
  const stop = async () => {
    await server.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stdin.on("end", stop); // the test process went away: do not outlive it
  process.stdin.resume();
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack || err) + "\n");
  process.exit(1);
});
