import { startOpenAiStandIn } from "../test/support/openai-stand-in.ts";
import { fundedDeveloperOverHttp } from "../test/support/server-process.ts";
import { startService, type StartedProcess } from "./processes.ts";
import { median, type BenchRow } from "./report.ts";

/**
 * What the service adds on the model path: the same reply fetched straight from a local OpenAI-compatible
 * stand-in (the baseline), and through `POST /genies/{shortName}/chat` on the service configured to use it. The
 * service checks its output sentence by sentence before a delta leaves, so its first delta is compared with the
 * stand-in's whole (short) reply: what remains is key check, limits, safeguarding, retrieval, prompt building,
 * the price's reservation (which must confirm before the first delta; PGlite runs it on its own thread, beside the
 * reading of the model's reply), the AI SDK and the NDJSON encoding.
 *
 * It measures a warm service, twice. The first few dozen chats after a start take several times as long, and V8 keeps
 * optimising the chat path (a deep stack: the AI SDK's streams, undici, the output guard) for several hundred more:
 * on one quiet machine the median was 5.8 ms after 200 chats and 3.4–3.7 ms after 1,000. So the samples are taken
 * after an early warm-up (at least `warmupMs` and `warmupCalls`: 2 s and 200 chats by default) and again in steady
 * state, after `steadyCalls` chats in all (1,000 by default); the target applies to the steady state, which is what
 * a service that has been up for a while gives every chat, and both rows are printed. Each chat is 4p, which the
 * payer's £100 covers.
 */
const reply =
  "Diffusion is the net movement of particles from high to low concentration. It needs no energy.";

async function timeToFirstToken(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    body: JSON.stringify({
      model: "bench",
      stream: true,
      messages: [{ role: "user", content: "diffusion?" }],
    }),
  });
  await response.text();
  return performance.now() - started;
}

async function timeToFirstDelta(baseUrl: string, key: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v1/genies/aqa-gcse-biology/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ messages: [{ role: "user", content: "What is diffusion?" }] }),
  });
  if (response.status !== 200)
    throw new Error(`model-path chat: ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let elapsed: number | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (elapsed === null && text.includes('"type":"delta"')) elapsed = performance.now() - started;
  }
  if (elapsed === null) throw new Error(`model-path chat streamed no delta: ${text.slice(0, 200)}`);
  return elapsed;
}

const maxWarmupCalls = 400;

export async function benchModelPath(options: {
  serviceEnv: Record<string, string>;
  samples: number;
  warmupMs?: number;
  warmupCalls?: number;
  /** Chats, warm-up included, before the steady-state samples. */
  steadyCalls?: number;
}): Promise<BenchRow[]> {
  const warmupMs = options.warmupMs ?? 2000;
  const warmupCalls = options.warmupCalls ?? 200;
  const steadyCalls = options.steadyCalls ?? 1000;
  const standIn = await startOpenAiStandIn();
  standIn.setFallback(() => ({ kind: "text", text: reply, chunkSize: 12 }));
  let service: StartedProcess | null = null;
  try {
    service = await startService({
      ...options.serviceEnv,
      DATA_DIR: `${process.env.TMPDIR ?? "/tmp"}/syllabi-bench-model-${process.pid}`,
      AI_PROVIDER: "openai-compatible",
      AI_BASE_URL: standIn.url,
      AI_MODEL: "bench",
      AI_API_KEY: "bench",
    });
    const payer = await fundedDeveloperOverHttp(service.baseUrl, { keys: 1, topUpPence: 10000 });
    const key = payer.keys[0]!;
    const warmingSince = performance.now();
    let calls = 0;
    do {
      await timeToFirstToken(standIn.url);
      await timeToFirstDelta(service.baseUrl, key);
      calls += 1;
    } while (calls < maxWarmupCalls && (calls < warmupCalls || performance.now() - warmingSince < warmupMs));
    const sample = async () => {
      const direct: number[] = [];
      const through: number[] = [];
      for (let index = 0; index < options.samples; index += 1) {
        direct.push(await timeToFirstToken(standIn.url));
        through.push(await timeToFirstDelta(service!.baseUrl, key));
      }
      calls += options.samples;
      return { direct, through, added: through.map((value, index) => value - direct[index]!) };
    };
    const early = await sample();
    while (calls < steadyCalls) {
      await timeToFirstToken(standIn.url);
      await timeToFirstDelta(service.baseUrl, key);
      calls += 1;
    }
    const steady = await sample();
    const baselineName = "the stand-in model's whole reply, fetched directly";
    const after = {
      early: `median of ${options.samples} after a warm-up of ${warmupCalls} calls and ${warmupMs / 1000} s`,
      steady: `median of ${options.samples} in steady state (after ${calls - options.samples} calls)`,
    };
    const modelCase = "genie chat NDJSON, 4p (model path)";
    return [
      {
        case: modelCase,
        measure: `time to first delta, ${after.early}`,
        unit: "ms",
        service: median(early.through),
        baseline: median(early.direct),
        baselineName,
      },
      {
        case: modelCase,
        measure: `time the service adds to the model, ${after.early}`,
        unit: "ms",
        service: median(early.added),
        baseline: null,
        baselineName: "—",
      },
      {
        case: modelCase,
        measure: `time to first delta, ${after.steady}`,
        unit: "ms",
        service: median(steady.through),
        baseline: median(steady.direct),
        baselineName,
      },
      {
        case: modelCase,
        measure: `time the service adds to the model, ${after.steady}`,
        unit: "ms",
        service: median(steady.added),
        baseline: null,
        baselineName: "—",
        target: { maximum: 5 },
      },
    ];
  } finally {
    await service?.stop();
    await standIn.close();
  }
}
