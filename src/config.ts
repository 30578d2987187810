import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

const optionalUrl = (protocols: RegExp) => z.url({ protocol: protocols }).optional();

/**
 * Every environment variable the service reads, with its default. The README's configuration table is
 * this schema in prose. Parsed once, at the composition root.
 */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("127.0.0.1"),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    DATABASE_URL: optionalUrl(/^postgres(ql)?$/),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    REDIS_URL: optionalUrl(/^rediss?$/),
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default("syllabi"),
    SMTP_URL: optionalUrl(/^smtps?$/),
    MAIL_FROM: z.string().min(3).default("Syllabi <no-reply@syllabi.localhost>"),
    STRIPE_SECRET_KEY: z.string().startsWith("sk_").optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_").optional(),
    STRIPE_API_BASE: z.url().optional(),
    AI_PROVIDER: z.enum(["offline", "openai", "anthropic", "openai-compatible"]).default("offline"),
    AI_MODEL: z.string().min(1).optional(),
    AI_BASE_URL: z.url().optional(),
    AI_API_KEY: z.string().min(1).optional(),
    AI_EMBEDDING_MODEL: z.string().min(1).optional(),
    AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    /** On the model path, the model also reads every chat turn for safeguarding (it can only raise a finding). */
    SAFEGUARDING_MODEL_CHECK: booleanFlag.default(true),
    SAFEGUARDING_MODEL_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4_000),
    STREAM_STALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    RATE_LIMIT_GENERAL_PER_MIN: z.coerce.number().int().min(1).max(100_000).default(120),
    RATE_LIMIT_AI_PER_MIN: z.coerce.number().int().min(1).max(100_000).default(30),
    RATE_LIMIT_IP_PER_MIN: z.coerce.number().int().min(1).max(100_000).default(60),
    METRICS_TOKEN: z.string().min(16).optional(),
    KEY_PEPPER: z.string().min(32).optional(),
    VAT_RATE_PERCENT: z.coerce.number().min(0).max(100).default(0),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: booleanFlag.default(false),
  })
  .superRefine((env, context) => {
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      context.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all",
      });
    }
    if (env.AI_PROVIDER !== "offline" && !env.AI_MODEL) {
      context.addIssue({
        code: "custom",
        path: ["AI_MODEL"],
        message: `is required when AI_PROVIDER=${env.AI_PROVIDER}`,
      });
    }
    if (env.AI_PROVIDER === "openai-compatible" && !env.AI_BASE_URL) {
      context.addIssue({
        code: "custom",
        path: ["AI_BASE_URL"],
        message: "is required when AI_PROVIDER=openai-compatible",
      });
    }
    if (env.NODE_ENV === "production" && !env.KEY_PEPPER) {
      context.addIssue({
        code: "custom",
        path: ["KEY_PEPPER"],
        message: "is required in production (32+ characters)",
      });
    }
  });

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment; the first problem becomes one readable line. */
export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape).flatMap((name) => {
      const value = env[name];
      return value === undefined || value === "" ? [] : [[name, value]];
    }),
  );
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${issue.path.join(".")} ${issue.message}`);
  }
  return parsed.data;
}
