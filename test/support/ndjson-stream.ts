import { request } from "node:http";

export interface OpenStream {
  status: number;
  /** The next complete line, as the server sends it; null once the stream has ended. */
  nextLine(): Promise<string | null>;
  /** Every remaining line, once the response has ended. */
  rest(): Promise<string[]>;
  /** Destroys the connection (a client giving up). */
  abort(): void;
}

/** POSTs JSON and reads the NDJSON answer line by line as it arrives, over a plain keep-alive connection. */
export function postNdjson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
    });
    outgoing.on("error", reject);
    outgoing.on("response", (response) => {
      response.setEncoding("utf8");
      const lines: string[] = [];
      let partial = "";
      let ended = false;
      let failed: Error | null = null;
      let wake: (() => void) | null = null;
      const notify = () => {
        wake?.();
        wake = null;
      };
      response.on("data", (chunk: string) => {
        partial += chunk;
        const parts = partial.split("\n");
        partial = parts.pop() ?? "";
        lines.push(...parts.filter((line) => line !== ""));
        notify();
      });
      response.on("end", () => {
        if (partial !== "") lines.push(partial);
        ended = true;
        notify();
      });
      response.on("error", (error) => {
        failed = error;
        notify();
      });
      response.on("aborted", () => {
        failed = new Error("the response was aborted");
        notify();
      });
      const waitForChange = () => new Promise<void>((wakeUp) => (wake = wakeUp));

      resolve({
        status: response.statusCode ?? 0,
        nextLine: async () => {
          for (;;) {
            if (lines.length > 0) return lines.shift()!;
            if (failed) throw failed;
            if (ended) return null;
            await waitForChange();
          }
        },
        rest: async () => {
          while (!ended) {
            if (failed) throw failed;
            await waitForChange();
          }
          return lines.splice(0);
        },
        abort: () => outgoing.destroy(),
      });
    });
    outgoing.end(JSON.stringify(body));
  });
}

/** Every event of a complete NDJSON body, in order. */
export function parseNdjson<Event = Record<string, unknown>>(text: string): Event[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Event);
}
