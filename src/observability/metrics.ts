import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** One registry per app instance (never the global one), so tests and several apps in a process stay apart. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: "syllabi_http_requests_total",
      help: "HTTP requests by route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: "syllabi_http_request_duration_seconds",
      help: "HTTP request duration by route pattern",
      labelNames: ["method", "route"] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    }),
    safeguardingEvents: new Counter({
      name: "syllabi_safeguarding_events_total",
      help: "Safeguarding detections by category and severity (never any message text)",
      labelNames: ["category", "severity"] as const,
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
