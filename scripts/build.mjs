// `npm run build` (and `npm start` before it runs): bundles src/ and its dependencies into two ES modules, the
// entry and, beside it, cli-commands.mjs (see below), and a third for the thread PGlite runs on, pglite-worker.mjs
// (src/storage/pglite-thread.ts looks for it beside itself).
//
//   node scripts/build.mjs [outfile]     default dist/bundle/cli.mjs
//
// The output must sit two directories below the repository root, like src/<area>/, because the code finds the
// catalogue, the migrations and the portal two levels up from itself.
//
// Dependencies are bundled too: loading a few hundred package files one by one was most of start-up's module
// loading (each asynchronous read waits its turn in libuv's threads while PGlite reads its own files). These stay
// outside the bundle:
// - PGlite, which reads its WebAssembly and data from beside its code;
// - clients that only some configurations use, imported when needed (node-postgres, ioredis, Stripe, nodemailer)
//   or only when the catalogue must be compiled (js-yaml), so that a start without them never parses them;
// - Fastify's default schema compilers, which it never loads here.
import path from "node:path";
import { readFile } from "node:fs/promises";
import { argv } from "node:process";
import { build } from "esbuild";

const outfile = argv[2] ?? "dist/bundle/cli.mjs";

const external = [
  "@electric-sql/pglite",
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

// The OpenAPI plugin and the docs UI find their own files (package.json, the UI's assets) from __dirname, which an
// ES module has not: each of their files that uses it is given the path its file has in node_modules, as seen from
// the bundle two levels below the repository root. Loaded from node_modules instead, they and their dependencies
// (yaml, the static server's glob and send) were some 170 ms of start-up CPU reading and compiling files one by one.
const repositoryRoot = path.resolve(import.meta.dirname, "..");
const ownDirectoryForBundledPackages = {
  name: "own-directory-for-bundled-packages",
  setup(packageBuild) {
    packageBuild.onLoad(
      { filter: /[\\/]node_modules[\\/]@fastify[\\/]swagger(-ui)?[\\/].*\.js$/ },
      async (args) => {
        const contents = await readFile(args.path, "utf8");
        if (!contents.includes("__dirname")) return undefined;
        const directory = path.relative(repositoryRoot, path.dirname(args.path)).split(path.sep).join("/");
        return {
          contents: `var __dirname = require("node:path").resolve(syllabiBundleDirectory, "../..", ${JSON.stringify(directory)});\n${contents}`,
          loader: "js",
        };
      },
    );
  },
};

const shared = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external,
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none unless it makes one.
  banner: {
    js: "import { createRequire as syllabiCreateRequire } from 'node:module'; const require = syllabiCreateRequire(import.meta.url); const syllabiBundleDirectory = import.meta.dirname;",
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
    plugins: [ownDirectoryForBundledPackages],
  }),
  build({
    ...shared,
    entryPoints: ["src/storage/pglite-worker.ts"],
    outfile: path.join(path.dirname(outfile), "pglite-worker.mjs"),
  }),
]);
