import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import Fastify from "fastify";

/**
 * The baseline: a bare Fastify server (no logging, hooks, auth, limits or validation) answering with the very
 * bytes the service sent. Run as its own process, like the service, so both get the same share of the CPU.
 *
 *   node --import tsx bench/baseline-server.ts <bodies-dir> <port>
 *
 * Every file `<name>` in the directory is served at `GET /static/<name>`, `POST /echo/<name>` (after parsing
 * the JSON body) and `POST /stream/<name>` (its lines as an NDJSON stream).
 */
const [directory, portText] = process.argv.slice(2);
if (!directory) throw new Error("usage: baseline-server.ts <bodies-dir> [port]");

// Bytes, not strings: the fastest way a bare server can send a fixed body.
const bodies = new Map<string, Buffer>();
for (const name of await readdir(directory)) {
  bodies.set(name, await readFile(path.join(directory, name)));
}

const app = Fastify({ logger: false });
const bodyOf = (name: string) => bodies.get(name) ?? Buffer.from("{}");

app.get<{ Params: { name: string } }>("/static/:name", async (request, reply) =>
  reply.type("application/json; charset=utf-8").send(bodyOf(request.params.name)),
);
app.post<{ Params: { name: string } }>("/echo/:name", async (request, reply) =>
  reply.type("application/json; charset=utf-8").send(bodyOf(request.params.name)),
);
app.post<{ Params: { name: string } }>("/stream/:name", async (request, reply) => {
  const lines = bodyOf(request.params.name)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => `${line}\n`);
  return reply.type("application/x-ndjson; charset=utf-8").send(Readable.from(lines));
});
app.get("/readyz", async () => ({ status: "ready" }));

const address = await app.listen({ port: Number(portText ?? 0), host: "127.0.0.1" });
process.stdout.write(`listening ${address}\n`);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
