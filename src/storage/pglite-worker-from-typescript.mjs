// The PGlite thread's entry when the service runs from its TypeScript (tsx, vitest): the `--import tsx` a worker
// inherits registers tsx's loader only on the main thread on Node 20 (it cannot tell its own loader threads from
// workers there), and under vitest there is no TypeScript loader to inherit at all, so the thread registers tsx
// itself before loading its code. Bundled, the thread runs dist/bundle/pglite-worker.mjs.
import { register } from "tsx/esm/api";

register();
await import("./pglite-worker.ts");
