import type { LoggerOptions } from "pino";

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
