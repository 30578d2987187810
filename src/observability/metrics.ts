import { Counter, Registry, collectDefaultMetrics } from "prom-client";

const requestsName = "syllabi_http_requests_total";
const requestsHelp = "HTTP requests by route pattern and status";
const durationName = "syllabi_http_request_duration_seconds";
const durationHelp = "HTTP request duration by route pattern";
const durationBucketsSeconds = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];

interface RouteFigures {
  labels: string;
  byStatus: Map<number, number>;
  /** Requests per bucket, not cumulative; the last slot is beyond the largest bound. */
  bucketCounts: number[];
  sumSeconds: number;
  count: number;
}

function labelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

/**
 * The per-request counter and duration histogram, kept as plain numbers per route and method and written out in
 * Prometheus' text format when scraped. prom-client's labelled counter and histogram build and hash a label key
 * on every request, which cost more than the rest of the bookkeeping of a data request together.
 */
export class HttpRequestMetrics {
  private readonly byRoute = new Map<string, Map<string, RouteFigures>>();

  /** `route` is the route's pattern (or "unmatched"), never the raw path, so the series stay few. */
  observe(method: string, route: string, statusCode: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let figures = byMethod.get(method);
    if (figures === undefined) {
      figures = {
        labels: `method="${labelValue(method)}",route="${labelValue(route)}"`,
        byStatus: new Map(),
        bucketCounts: new Array<number>(durationBucketsSeconds.length + 1).fill(0),
        sumSeconds: 0,
        count: 0,
      };
      byMethod.set(method, figures);
    }
    figures.byStatus.set(statusCode, (figures.byStatus.get(statusCode) ?? 0) + 1);
    let bucket = 0;
    while (bucket < durationBucketsSeconds.length && seconds > durationBucketsSeconds[bucket]!) bucket += 1;
    figures.bucketCounts[bucket]! += 1;
    figures.sumSeconds += seconds;
    figures.count += 1;
  }

  /** Both metrics in the text exposition format, as prom-client writes them. */
  exposition(): string {
    const requests = [`# HELP ${requestsName} ${requestsHelp}`, `# TYPE ${requestsName} counter`];
    const durations = [`# HELP ${durationName} ${durationHelp}`, `# TYPE ${durationName} histogram`];
    for (const byMethod of this.byRoute.values()) {
      for (const figures of byMethod.values()) {
        for (const [status, count] of figures.byStatus) {
          requests.push(`${requestsName}{${figures.labels},status="${status}"} ${count}`);
        }
        let cumulative = 0;
        durationBucketsSeconds.forEach((bound, index) => {
          cumulative += figures.bucketCounts[index]!;
          durations.push(`${durationName}_bucket{le="${bound}",${figures.labels}} ${cumulative}`);
        });
        durations.push(`${durationName}_bucket{le="+Inf",${figures.labels}} ${figures.count}`);
        durations.push(`${durationName}_sum{${figures.labels}} ${figures.sumSeconds}`);
        durations.push(`${durationName}_count{${figures.labels}} ${figures.count}`);
      }
    }
    return `${requests.join("\n")}\n\n${durations.join("\n")}\n`;
  }
}

const laneName = "syllabi_prepared_lane_answers_total";
const laneHelp =
  "Requests answered by the prepared lane before the router (the rest of the data calls took the router)";

/** How many requests the prepared lane answered: a plain number, as the lane itself counts on the hot path. */
export class PreparedLaneMetrics {
  answered = 0;

  exposition(): string {
    return `# HELP ${laneName} ${laneHelp}\n# TYPE ${laneName} counter\n${laneName} ${this.answered}\n`;
  }
}

/** One registry per app instance (never the global one), so tests and several apps in a process stay apart. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = new HttpRequestMetrics();
  const preparedLane = new PreparedLaneMetrics();
  return {
    registry,
    http,
    preparedLane,
    /** Everything /metrics serves: the process's default metrics, ours, and the HTTP requests'. */
    exposition: async () => `${await registry.metrics()}\n${http.exposition()}\n${preparedLane.exposition()}`,
    safeguardingEvents: new Counter({
      name: "syllabi_safeguarding_events_total",
      help: "Safeguarding detections by category and severity (never any message text)",
      labelNames: ["category", "severity"] as const,
      registers: [registry],
    }),
    safeguardingSecondReadings: new Counter({
      name: "syllabi_safeguarding_second_readings_total",
      help: "The model's safeguarding readings on the model path, by outcome (raised, unchanged, or why it failed)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    charges: new Counter({
      name: "syllabi_charges_total",
      help: "Paid calls charged, by kind",
      labelNames: ["kind"] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
