// `npm run build` (and `npm start` before it runs): bundles src/ and its dependencies into two ES modules, the
// entry and, beside it, cli-commands.mjs (see below).
//
//   node scripts/build.mjs [outfile]     default dist/bundle/cli.mjs
//
// The output must sit two directories below the repository root, like src/<area>/, because the code finds the
// catalogue, the migrations and the portal two levels up from itself.
//
// Dependencies are bundled too: loading a few hundred package files one by one was most of start-up's module
// loading (each asynchronous read waits its turn in libuv's threads while PGlite reads its own files). These stay
// outside the bundle:
// - packages that read their own files from beside their code (PGlite's WebAssembly and data, the docs UI's and
//   the static server's assets, the OpenAPI plugin's package.json);
// - clients that only some configurations use, imported when needed (node-postgres, ioredis, Stripe, nodemailer)
//   or only when the catalogue must be compiled (js-yaml), so that a start without them never parses them;
// - Fastify's default schema compilers, which it never loads here.
import path from "node:path";
import { argv } from "node:process";
import { build } from "esbuild";

const outfile = argv[2] ?? "dist/bundle/cli.mjs";

const external = [
  "@electric-sql/pglite",
  "@fastify/swagger",
  "@fastify/swagger-ui",
  "@fastify/static",
  "pg",
  "drizzle-orm/node-postgres",
  "drizzle-orm/node-postgres/migrator",
  "ioredis",
  "stripe",
  "nodemailer",
  "js-yaml",
  // Fastify's default validator and serializer compilers (Ajv, fast-json-stringify): it requires them only when no
  // compiler factory is given, and every schema here is zod, so they are never loaded; bundled, they were half a
  // megabyte that V8 parsed at every start.
  "@fastify/ajv-compiler",
  "@fastify/fast-json-stringify-compiler",
];

const shared = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external,
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none unless it makes one.
  banner: {
    js: "import { createRequire as syllabiCreateRequire } from 'node:module'; const require = syllabiCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
};

// Two files. The entry (src/cli.ts, a few kilobytes) starts opening PGlite and only then imports the commands, the
// rest of the code, from the second: V8 compiling and evaluating those megabytes overlaps PGlite's own start instead
// of coming before it.
const commandsFile = "cli-commands.mjs";
const commandsOutsideTheEntry = {
  name: "commands-outside-the-entry",
  setup(entryBuild) {
    entryBuild.onResolve({ filter: /^\.\/cli-commands\.ts$/ }, () => ({
      path: `./${commandsFile}`,
      external: true,
    }));
  },
};
await Promise.all([
  build({ ...shared, entryPoints: ["src/cli.ts"], outfile, plugins: [commandsOutsideTheEntry] }),
  build({
    ...shared,
    entryPoints: ["src/cli-commands.ts"],
    outfile: path.join(path.dirname(outfile), commandsFile),
  }),
]);
