import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HttpRequestMetrics } from "../../src/observability/metrics.ts";

/** The same observations through prom-client's own labelled counter and histogram, as the service used to keep. */
async function promClientExposition(observations: [string, string, number, number][]): Promise<string> {
  const registry = new Registry();
  const requests = new Counter({
    name: "syllabi_http_requests_total",
    help: "HTTP requests by route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "syllabi_http_request_duration_seconds",
    help: "HTTP request duration by route pattern",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) {
    requests.inc({ method, route, status: String(status) });
    duration.observe({ method, route }, seconds);
  }
  return registry.metrics();
}

/** Each metric family's header lines, then its series in sorted order: Prometheus gives series order no meaning. */
function families(exposition: string): string[][] {
  return exposition.split("\n\n").map((family) => {
    const lines = family.split("\n");
    const headers = lines.filter((line) => line.startsWith("#"));
    return [...headers, ...lines.filter((line) => !line.startsWith("#")).sort()];
  });
}

describe("HTTP request metrics", () => {
  it("writes exactly what prom-client wrote for the same requests", async () => {
    const observations: [string, string, number, number][] = [
      ["GET", "/api/v1/subjects", 200, 0.0004],
      ["GET", "/api/v1/subjects", 200, 0.001],
      ["GET", "/api/v1/subjects", 304, 0.0021],
      ["GET", "/api/v1/subjects/:subjectId/tree", 404, 0.07],
      ["POST", "/api/v1/align", 200, 0.2],
      ["GET", "/api/v1/subjects", 429, 31],
      ["GET", "unmatched", 404, 1],
      ["POST", 'a "quoted" \\ route\nwith a newline', 500, 5.5],
    ];
    const metrics = new HttpRequestMetrics();
    for (const [method, route, status, seconds] of observations)
      metrics.observe(method, route, status, seconds);
    const ours = metrics.exposition();
    expect(families(ours)).toEqual(families(await promClientExposition(observations)));
    // The histogram's buckets stay in order within each series, as Prometheus reads them.
    expect(ours).toContain(
      [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, "+Inf"]
        .map(
          (bound, index) =>
            `syllabi_http_request_duration_seconds_bucket{le="${bound}",method="GET",route="/api/v1/subjects"} ${[2, 3, 3, 3, 3, 3, 3, 3, 3, 4][index]}`,
        )
        .join("\n"),
    );
  });

  it("writes both metrics' headers before any request", async () => {
    expect(new HttpRequestMetrics().exposition()).toBe(await promClientExposition([]));
  });
});
