import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import type { Bindings, ChildLoggerOptions, LogFn, LoggerOptions } from "pino";

/**
 * Logs carry a request id, never a key, a cookie or message text: request bodies are not logged at all and
 * these paths are redacted wherever they appear.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        "req.headers['x-csrf-token']",
        "res.headers['set-cookie']",
        "headers.authorization",
        "authorization",
        "secret",
        "body",
        "messages",
        "text",
        "content",
        "password",
      ],
      censor: "[redacted]",
    },
  };
}

const levelRanks: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
type LevelName = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/** Whether a line at `level` would be written (pino's isLevelEnabled, which Fastify's logger type omits). */
export function logsAt(logger: FastifyBaseLogger, level: LevelName): boolean {
  return levelRanks[level]! >= (levelRanks[logger.level] ?? Number.POSITIVE_INFINITY);
}

/**
 * A request's logger that makes its pino child (bound to the request id) only when a line is written at an enabled
 * level. Fastify makes a child for every request, and making one (its bindings serialised, its level methods set
 * up) cost a visible share of a data request that, at the default level, logs nothing.
 */
class RequestLogger implements FastifyBaseLogger {
  private madeChild: FastifyBaseLogger | null = null;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
    /** Lines below this rank are dropped without making the child (Infinity when silent). */
    private lowestRank: number,
  ) {}

  /** The pino child, made on first use exactly as Fastify would have made it. */
  made(): FastifyBaseLogger {
    return (this.madeChild ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.madeChild?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made().level = level;
    this.lowestRank = levelRanks[level] ?? Number.POSITIVE_INFINITY;
  }

  writes(level: LevelName): boolean {
    return levelRanks[level]! >= this.lowestRank;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

for (const level of ["fatal", "error", "warn", "info", "debug", "trace"] as const) {
  RequestLogger.prototype[level] = function (this: RequestLogger, ...args: unknown[]): void {
    if (!this.writes(level)) return;
    const logger = this.made();
    Reflect.apply(logger[level], logger, args);
  };
}
RequestLogger.prototype.silent = () => {};

/** Fastify's childLoggerFactory: a RequestLogger with the bindings and options Fastify would give pino. */
export const lazyRequestLogger: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) =>
  new RequestLogger(
    logger,
    bindings,
    options,
    levelRanks[options.level ?? logger.level] ?? Number.POSITIVE_INFINITY,
  );
