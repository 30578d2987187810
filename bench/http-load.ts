import { connect, type Socket } from "node:net";

/**
 * A small keep-alive HTTP/1.1 load generator on raw sockets. It does far less work per request than fetch or
 * node:http, so on a two-core machine the server under test, not the client, is what runs out of CPU.
 */

export interface HttpTarget {
  host: string;
  port: number;
}

export interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface ParsedResponse {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

export function encodeRequest(target: HttpTarget, spec: RequestSpec): Buffer {
  const body = spec.body === undefined ? null : Buffer.from(spec.body, "utf8");
  const lines = [`${spec.method} ${spec.path} HTTP/1.1`, `host: ${target.host}:${target.port}`];
  for (const [name, value] of Object.entries(spec.headers ?? {})) lines.push(`${name}: ${value}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return body ? Buffer.concat([head, body]) : head;
}

interface ResponseHead {
  status: number;
  /** The header lines, parsed only if a caller reads `headers`. */
  headerText: string;
  bodyStart: number;
  /** Null for a chunked body, whose end is found by parsing it. */
  contentLength: number | null;
}

const contentLengthLine = /\r\ncontent-length:[ \t]*(\d+)/i;
const chunkedLine = /\r\ntransfer-encoding:[ \t]*chunked/i;

/**
 * The status line and the two headers that frame the body, at the start of `buffer`; null while the blank line has
 * not arrived. The other headers are left unparsed: the service sends three times the baseline's header bytes, and
 * the load generator must not charge that to the server it measures.
 */
function parseHead(buffer: Buffer): ResponseHead | null {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const headerText = buffer.toString("latin1", 0, headEnd);
  const status = Number(headerText.slice(9, 12));
  const contentLength = contentLengthLine.exec(headerText);
  return {
    status,
    headerText,
    bodyStart: headEnd + 4,
    contentLength: chunkedLine.test(headerText) ? null : Number(contentLength?.[1] ?? 0),
  };
}

function parseHeaders(headerText: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of headerText.split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function responseOf(head: ResponseHead, body: Buffer): ParsedResponse {
  let headers: Map<string, string> | null = null;
  return {
    status: head.status,
    get headers() {
      return (headers ??= parseHeaders(head.headerText));
    },
    body,
  };
}

/** The end of a chunked body that starts at `offset`, with its parts; null while more bytes are needed. */
function parseChunkedBody(buffer: Buffer, offset: number): { parts: Buffer[]; end: number } | null {
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = buffer.indexOf("\r\n", offset);
    if (lineEnd < 0) return null;
    const size = parseInt(buffer.toString("latin1", offset, lineEnd), 16);
    const dataStart = lineEnd + 2;
    if (buffer.length < dataStart + size + 2) return null;
    if (size === 0) return { parts, end: dataStart + 2 };
    parts.push(buffer.subarray(dataStart, dataStart + size));
    offset = dataStart + size + 2;
  }
}

/**
 * One keep-alive connection that sends a request only after the previous response is complete. A large body
 * arrives in several reads: the head is parsed once and the reads are joined once, when the last byte is in, so
 * the client's cost per response does not grow with the number of reads (on two cores the client shares the
 * machine with the server it measures).
 */
class Connection {
  private chunks: Buffer[] = [];
  private received = 0;
  private head: ResponseHead | null = null;
  private waiting: { resolve: (response: ParsedResponse) => void; reject: (error: Error) => void } | null =
    null;
  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.received += chunk.length;
      this.tryComplete();
    });
    const fail = (error: Error) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.reject(error);
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("connection closed")));
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.received)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private tryComplete(): void {
    if (!this.waiting) return;
    if (!this.head) {
      this.head = parseHead(this.joined());
      if (!this.head) return;
    }
    const head = this.head;
    const { bodyStart, contentLength } = head;
    let body: Buffer;
    let used: number;
    if (contentLength === null) {
      const buffer = this.joined();
      const chunked = parseChunkedBody(buffer, bodyStart);
      if (!chunked) return;
      body = Buffer.concat(chunked.parts);
      used = chunked.end;
    } else {
      if (this.received < bodyStart + contentLength) return;
      const buffer = this.joined();
      body = buffer.subarray(bodyStart, bodyStart + contentLength);
      used = bodyStart + contentLength;
    }
    const rest = this.joined().subarray(used);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.received = rest.length;
    this.head = null;
    const { resolve } = this.waiting;
    this.waiting = null;
    resolve(responseOf(head, body));
  }

  static open(target: HttpTarget): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect(target.port, target.host);
      socket.once("connect", () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  send(request: Buffer): Promise<ParsedResponse> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

export function percentile(sortedMs: readonly number[], fraction: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor(sortedMs.length * fraction))]!;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Responses inside the measured window. */
  completed: number;
  /** Every response, warm-up included. */
  total: number;
  /** Responses whose status was not the expected one. */
  unexpected: number;
  /** Count of responses by status. */
  statuses: Record<number, number>;
  p50Ms: number;
  p95Ms: number;
}

/**
 * Closed-loop load: `connections` connections, each sending the next request as soon as its response is in,
 * for `durationMs` after `warmupMs` of untimed traffic.
 */
export async function measureThroughput(
  target: HttpTarget,
  spec: RequestSpec | readonly RequestSpec[] | ((index: number) => RequestSpec),
  options: { connections: number; durationMs: number; warmupMs: number; expectStatus?: number },
): Promise<LoadResult> {
  // A list of specs is encoded once and taken in turn (one key per entry, say, to spread a rate limit).
  const fixed =
    typeof spec === "function"
      ? null
      : (Array.isArray(spec) ? spec : [spec as RequestSpec]).map((each) => encodeRequest(target, each));
  const requestFor = (index: number) =>
    fixed
      ? fixed[index % fixed.length]!
      : encodeRequest(target, (spec as (index: number) => RequestSpec)(index));
  const connections = await Promise.all(
    Array.from({ length: options.connections }, () => Connection.open(target)),
  );
  const expectStatus = options.expectStatus ?? 200;
  const latencies: number[] = [];
  let unexpected = 0;
  const statuses: Record<number, number> = {};
  let sent = 0;
  let total = 0;
  const startedAt = performance.now();
  const measureFrom = startedAt + options.warmupMs;
  const stopAt = measureFrom + options.durationMs;
  try {
    await Promise.all(
      connections.map(async (connection) => {
        for (;;) {
          const before = performance.now();
          if (before >= stopAt) return;
          const response = await connection.send(requestFor(sent++));
          const after = performance.now();
          total += 1;
          if (before >= measureFrom && after <= stopAt) {
            latencies.push(after - before);
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
            if (response.status !== expectStatus) unexpected += 1;
          }
        }
      }),
    );
  } finally {
    for (const connection of connections) connection.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / (options.durationMs / 1000),
    completed: latencies.length,
    total,
    unexpected,
    statuses,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
  };
}

/** Sequential requests on one connection: the latency a single caller sees, without queueing. */
export async function measureLatency(
  target: HttpTarget,
  specs: readonly RequestSpec[],
  options: { warmupRounds: number; rounds: number; expectStatus?: number },
): Promise<LoadResult> {
  const connection = await Connection.open(target);
  const expectStatus = options.expectStatus ?? 200;
  const latencies: number[] = [];
  let unexpected = 0;
  const statuses: Record<number, number> = {};
  const encoded = specs.map((spec) => encodeRequest(target, spec));
  const started = performance.now();
  try {
    for (let round = 0; round < options.warmupRounds + options.rounds; round += 1) {
      for (const request of encoded) {
        const before = performance.now();
        const response = await connection.send(request);
        if (round < options.warmupRounds) continue;
        latencies.push(performance.now() - before);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status !== expectStatus) unexpected += 1;
      }
    }
  } finally {
    connection.close();
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / elapsedSeconds,
    completed: latencies.length,
    total: encoded.length * (options.warmupRounds + options.rounds),
    unexpected,
    statuses,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
  };
}

/** One request on a fresh connection: the complete response. */
export async function requestOnce(target: HttpTarget, spec: RequestSpec): Promise<ParsedResponse> {
  const connection = await Connection.open(target);
  try {
    return await connection.send(encodeRequest(target, spec));
  } finally {
    connection.close();
  }
}

/**
 * Time from writing a request to receiving the first complete line of its body (NDJSON, chunked), on a
 * fresh connection each time; the rest of the stream is read and discarded.
 */
export async function timeToFirstLine(
  target: HttpTarget,
  spec: RequestSpec,
): Promise<{ firstLineMs: number; totalMs: number; status: number; firstLine: string }> {
  const socket = connect(target.port, target.host);
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return new Promise((resolve, reject) => {
    let buffer: Buffer = Buffer.alloc(0);
    let firstLineMs: number | null = null;
    let firstLine = "";
    const started = performance.now();
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const headEnd = buffer.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const status = Number(buffer.toString("latin1", 0, headEnd).split(" ")[1]);
      // The first chunk's data starts after its size line; a newline inside it ends the first NDJSON line.
      if (firstLineMs === null) {
        const sizeEnd = buffer.indexOf("\r\n", headEnd + 4);
        const newline = sizeEnd < 0 ? -1 : buffer.indexOf("\n", sizeEnd + 2);
        if (newline >= 0) {
          firstLineMs = performance.now() - started;
          firstLine = buffer.toString("utf8", sizeEnd + 2, newline);
        }
      }
      const head = parseHead(buffer);
      const complete =
        head !== null &&
        (head.contentLength === null
          ? parseChunkedBody(buffer, head.bodyStart) !== null
          : buffer.length >= head.bodyStart + head.contentLength);
      if (complete) {
        socket.destroy();
        const totalMs = performance.now() - started;
        resolve({ firstLineMs: firstLineMs ?? totalMs, totalMs, status, firstLine });
      }
    });
    socket.on("close", () => reject(new Error("connection closed before the response ended")));
    socket.on("error", reject);
    socket.write(encodeRequest(target, spec));
  });
}
