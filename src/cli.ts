#!/usr/bin/env node
// The command-line entry. For `serve` it starts opening the embedded database first, before the rest of the code is
// loaded (built, that rest is a second file), so that PGlite's file reads and WebAssembly compiling overlap loading
// and evaluating it; see EarlyPglite. The commands themselves are in cli-commands.ts.
import { EarlyPglite } from "./storage/pglite-opening.ts";

const earlyPglite = process.argv[2] === "serve" ? EarlyPglite.startFor(process.env) : null;
try {
  const { main } = await import("./cli-commands.ts");
  process.exitCode = await main(earlyPglite);
} finally {
  // Only when it was never adopted: the configuration was refused, or start-up failed before opening storage.
  await earlyPglite?.abandon();
}
