import type { AddressInfo } from "node:net";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import pino from "pino";
import { AccountService } from "./accounts/account-service.ts";
import { AccountStore } from "./accounts/account-store.ts";
import { buildApp } from "./app.ts";
import { createModelSetup } from "./ai/provider.ts";
import { createEmbeddingAligner } from "./align/embedding-aligner.ts";
import { createMemoryEmbeddingCache } from "./align/embedding-cache.ts";
import { createOfflineAligner } from "./align/offline-aligner.ts";
import { registerAlignRoute } from "./align/align-route.ts";
import { registerAccountRoute } from "./billing/account-route.ts";
import { registerChangelogRoutes } from "./operator/changelog-routes.ts";
import { WithdrawnEndpoints } from "./operator/withdrawals.ts";
import { registerIdempotency } from "./billing/idempotency-http.ts";
import { createBillingRuntime, type BillingRuntime } from "./billing/compose.ts";
import { Ledger } from "./billing/ledger.ts";
import { PriceBook } from "./billing/price-book.ts";
import { createQuestionWriter } from "./questions/writer.ts";
import { registerQuestionsRoute } from "./questions/questions-route.ts";
import { registerChatRoutes } from "./tutor/chat-route.ts";
import { createTutorEngine } from "./tutor/engine.ts";
import { createModelSecondReader } from "./safeguarding/model-reader.ts";
import { createNoteRetriever } from "./tutor/retrieval.ts";
import { loadCatalogue } from "./catalogue/load.ts";
import type { CatalogueSnapshot } from "./catalogue/model.ts";
import { registerCatalogueRoutes } from "./catalogue/routes.ts";
import type { Config } from "./config.ts";
import { KeyService } from "./keys/key-service.ts";
import { KeyStore } from "./keys/key-store.ts";
import { createRateLimits, type RateLimits } from "./limits/rate-limits.ts";
import { loggerOptions } from "./observability/logger.ts";
import { createMetrics } from "./observability/metrics.ts";
import { systemClock, type Clock } from "./shared/ids.ts";
import {
  createMemorySignalBus,
  createPostgresSignalBus,
  createRedisSignalBus,
  type SignalBus,
} from "./signals/signal-bus.ts";
import { openStorage, type Storage } from "./storage/database.ts";
import type { EarlyPglite } from "./storage/pglite-opening.ts";

const developmentPepper = "syllabi-development-pepper-never-use-in-production";

/**
 * The default public address, `http://HOST:PORT`, with the port the server actually bound once it listens: PORT
 * may be 0 (any free port), and links made after start-up (checkouts, the API document) must point at the server.
 */
function ownAddress(host: string, bound: AddressInfo | string | null, configuredPort: number): string {
  const port = bound !== null && typeof bound === "object" ? bound.port : configuredPort;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export interface Runtime {
  app: FastifyInstance;
  storage: Storage;
  catalogue: CatalogueSnapshot;
  keys: KeyService;
  accounts: AccountService;
  rateLimits: RateLimits;
  ledger: Ledger;
  bus: SignalBus;
  billing: BillingRuntime;
  clock: Clock;
  withdrawals: WithdrawnEndpoints;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock?: Clock;
  /** A pre-loaded catalogue (tests share one); loaded from disk otherwise. */
  catalogue?: CatalogueSnapshot;
  /** PGlite in memory instead of DATA_DIR (tests). */
  inMemoryDatabase?: boolean;
  /** PGlite already opening (started by the entry point); adopted when it is on DATA_DIR. */
  earlyPglite?: EarlyPglite | null;
}

/** Builds every collaborator from typed config: the only place that chooses implementations. */
export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const logger = pino(loggerOptions(config.LOG_LEVEL));
  const pepper = config.KEY_PEPPER ?? developmentPepper;

  const dataDir = options.inMemoryDatabase ? null : path.resolve(config.DATA_DIR);
  const opening = openStorage(
    config.DATABASE_URL
      ? { driver: "postgres", url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
      : { driver: "pglite", dataDir, opening: dataDir ? options.earlyPglite?.adopt(dataDir) : undefined },
  );
  // Awaited below, once the catalogue is loaded; marked handled so a failure meanwhile is not an unhandled rejection.
  opening.catch(() => {});
  // The catalogue is read while the database opens: PGlite spends part of its opening on other threads and files.
  let catalogue: CatalogueSnapshot;
  try {
    catalogue = options.catalogue ?? (await loadCatalogue());
  } catch (error) {
    await opening.then((storage) => storage.close()).catch(() => {});
    throw error;
  }
  const storage = await opening;
  const closers: (() => Promise<unknown>)[] = [() => storage.close()];
  try {
    await storage.migrate();

    let redis: Redis | null = null;
    let bus: SignalBus;
    if (config.REDIS_URL) {
      // Loaded only when configured: importing the client costs start-up that an instance without Redis saves.
      const { Redis } = await import("ioredis");
      redis = new Redis(config.REDIS_URL, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: true,
      });
      const subscriber = new Redis(config.REDIS_URL, { lazyConnect: true });
      redis.on("error", (error) => logger.warn({ err: error.message }, "redis unavailable"));
      subscriber.on("error", () => {});
      await Promise.all([redis.connect(), subscriber.connect()]);
      bus = createRedisSignalBus({ publisher: redis, subscriber, prefix: config.REDIS_KEY_PREFIX });
      closers.unshift(async () => redis?.disconnect());
    } else if (storage.pool) {
      bus = await createPostgresSignalBus(storage.pool, config.REDIS_KEY_PREFIX);
    } else {
      bus = createMemorySignalBus();
    }
    closers.unshift(() => bus.close());

    let warnedFallback = false;
    const rateLimits = createRateLimits(
      {
        generalPerMinute: config.RATE_LIMIT_GENERAL_PER_MIN,
        aiPerMinute: config.RATE_LIMIT_AI_PER_MIN,
        ipPerMinute: config.RATE_LIMIT_IP_PER_MIN,
        loginPerQuarterHour: 10,
      },
      redis ? { client: redis, prefix: config.REDIS_KEY_PREFIX } : null,
      () => {
        if (!warnedFallback)
          logger.warn("redis unavailable: rate limits fall back to this instance's memory");
        warnedFallback = true;
      },
    );

    const keys = new KeyService(new KeyStore(storage.db), bus, clock, pepper);
    const accounts = new AccountService(new AccountStore(storage.db), clock, pepper);
    const withdrawals = new WithdrawnEndpoints(storage.db, bus, clock);
    await withdrawals.start();
    closers.unshift(async () => withdrawals.stop());
    const metrics = createMetrics();
    // Its launch prices are seeded by createBillingRuntime, below.
    const priceBook = new PriceBook(storage.db);
    const ledger = new Ledger(storage.db, clock);

    const modelSetup = createModelSetup({
      provider: config.AI_PROVIDER,
      ...(config.AI_MODEL ? { model: config.AI_MODEL } : {}),
      ...(config.AI_BASE_URL ? { baseUrl: config.AI_BASE_URL } : {}),
      ...(config.AI_API_KEY ? { apiKey: config.AI_API_KEY } : {}),
      ...(config.AI_EMBEDDING_MODEL ? { embeddingModel: config.AI_EMBEDDING_MODEL } : {}),
    });
    // The embedding aligner fuses with the lexical ranking: hand it the offline aligner so the index is built once.
    const offlineAligner = createOfflineAligner(catalogue);
    const aligner =
      modelSetup.kind === "model" && modelSetup.embeddingModel
        ? createEmbeddingAligner({
            snapshot: catalogue,
            embeddingModel: modelSetup.embeddingModel,
            cache: createMemoryEmbeddingCache(),
            lexical: offlineAligner,
          })
        : offlineAligner;
    const modelTimeouts = {
      firstTokenMs: Math.min(15_000, config.AI_TIMEOUT_MS),
      totalMs: config.AI_TIMEOUT_MS,
    };
    const questionWriter = createQuestionWriter({ setup: modelSetup, catalogue, timeouts: modelTimeouts });
    let builtApp: FastifyInstance | null = null;
    const publicUrl = () =>
      config.PUBLIC_URL ?? ownAddress(config.HOST, builtApp?.server.address() ?? null, config.PORT);
    const billing = await createBillingRuntime({
      storage,
      ledger,
      priceBook,
      clock,
      keys,
      accounts,
      pepper,
      publicUrl,
      vatRatePercent: config.VAT_RATE_PERCENT,
      smtpUrl: config.SMTP_URL,
      mailFrom: config.MAIL_FROM,
      app: () => builtApp,
      stripe:
        config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: config.STRIPE_SECRET_KEY,
              webhookSecret: config.STRIPE_WEBHOOK_SECRET,
              apiBase: config.STRIPE_API_BASE,
            }
          : null,
      onError: (error) => logger.warn({ err: (error as Error).message }, "billing background work failed"),
    });

    const app = await buildApp({
      logger,
      storage,
      keys,
      accounts,
      rateLimits,
      metrics,
      metricsToken: config.METRICS_TOKEN,
      publicUrl,
      trustProxy: config.TRUST_PROXY,
      isWithdrawn: (endpoint) => withdrawals.isWithdrawn(endpoint),
      recordUsage: (accountId, kind) => billing.usage.record(accountId, kind),
      registerApiRoutes: (api) => {
        billing.registerApiHooks(api);
        registerIdempotency(api, billing.idempotency);
        registerCatalogueRoutes(api, { catalogue });
        registerAlignRoute(api, { catalogue, aligner, charging: billing.charging });
        registerQuestionsRoute(api, { catalogue, writer: questionWriter, charging: billing.charging });
        registerChatRoutes(api, {
          catalogue,
          engine: createTutorEngine({ setup: modelSetup, catalogue, timeouts: modelTimeouts }),
          retriever: createNoteRetriever(catalogue),
          charging: billing.charging,
          attribution: () => ({ text: "Tutoring powered by Syllabi", url: publicUrl() }),
          onSafeguarding: (category, severity) => metrics.safeguardingEvents.inc({ category, severity }),
          ...(modelSetup.kind === "model" && config.SAFEGUARDING_MODEL_CHECK
            ? {
                secondReader: createModelSecondReader({
                  languageModel: modelSetup.languageModel,
                  timeoutMs: config.SAFEGUARDING_MODEL_CHECK_TIMEOUT_MS,
                }),
                onSecondReading: (outcome: string) => metrics.safeguardingSecondReadings.inc({ outcome }),
              }
            : {}),
          stallTimeoutMs: config.STREAM_STALL_TIMEOUT_MS,
        });
        registerAccountRoute(api, {
          accounts,
          keys,
          prices: () => priceBook.listAt(clock.now()),
          usageSummary: (accountId) => billing.usage.summary(accountId),
          autoTopUp: (accountId) => billing.autoTopUp.settings(accountId),
        });
      },
      registerPlatformRoutes: (platform) => {
        billing.registerPlatformRoutes(platform);
        registerChangelogRoutes(platform, { db: storage.db });
      },
    });
    await billing.registerRootRoutes(app);
    builtApp = app;
    closers.unshift(() => app.close());
    const stopBilling = billing.startBackgroundWork();
    closers.unshift(() => stopBilling());

    return {
      app,
      storage,
      catalogue,
      keys,
      accounts,
      rateLimits,
      ledger,
      bus,
      billing,
      clock,
      withdrawals,
      close: async () => {
        for (const close of closers) await close().catch(() => {});
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => {});
    throw error;
  }
}
