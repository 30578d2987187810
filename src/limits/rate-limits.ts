import type { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";

export type PolicyName = "general" | "ai" | "ip" | "login";

export interface PolicyState {
  policy: PolicyName;
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
}

export type RateDecision =
  | { allowed: true; states: PolicyState[] }
  | { allowed: false; refusedBy: PolicyState; states: PolicyState[] };

export interface RateLimitSettings {
  generalPerMinute: number;
  aiPerMinute: number;
  ipPerMinute: number;
  loginPerQuarterHour: number;
}

export interface RateLimits {
  readonly backend: "memory" | "redis";
  /** Every authenticated request counts against `general`; AI calls also against `ai`. */
  consumeForKey(keyId: string, ai: boolean): Promise<RateDecision>;
  /**
   * consumeForKey without a promise when the counters are in this process (the memory backend), so the per-request
   * guard can decide synchronously; null when they must be asked for (Redis), and the caller uses consumeForKey.
   */
  consumeForKeyNow(keyId: string, ai: boolean): RateDecision | null;
  /** Unauthenticated and failed-auth requests, per client IP. */
  consumeForIp(ip: string): Promise<RateDecision>;
  /** Platform sign-in attempts, per IP and email. */
  consumeLogin(subject: string): Promise<RateDecision>;
  readonly settings: RateLimitSettings;
}

interface Limiter {
  name: PolicyName;
  limiter: RateLimiterAbstract;
  points: number;
  windowSeconds: number;
}

function stateOf(limiter: Limiter, result: RateLimiterRes): PolicyState {
  return {
    policy: limiter.name,
    limit: limiter.points,
    remaining: Math.max(0, limiter.points - result.consumedPoints),
    resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
    windowSeconds: limiter.windowSeconds,
  };
}

async function consume(limiter: Limiter, key: string): Promise<{ ok: boolean; state: PolicyState }> {
  try {
    return { ok: true, state: stateOf(limiter, await limiter.limiter.consume(key, 1)) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { ok: false, state: stateOf(limiter, rejection) };
    throw rejection;
  }
}

/** Applies limiters in order; a refusal gives back what the earlier ones took, so it counts nowhere else. */
async function consumeAll(limiters: Limiter[], key: string): Promise<RateDecision> {
  const states: PolicyState[] = [];
  for (const [index, limiter] of limiters.entries()) {
    const outcome = await consume(limiter, key);
    states.push(outcome.state);
    if (!outcome.ok) {
      await Promise.all(limiters.slice(0, index).map((earlier) => earlier.limiter.reward(key, 1)));
      return { allowed: false, refusedBy: outcome.state, states };
    }
  }
  return { allowed: true, states };
}

/**
 * Fixed windows kept in this process: per key, how many requests the current window has counted and when it ends.
 * A window starts at its key's first request, and a request over the limit is still counted, as rate-limiter-flexible
 * counts them; plain numbers in a map, so a decision needs no promise and next to no allocation.
 */
export class MemoryWindows {
  private readonly windows = new Map<string, { count: number; endsAtMs: number }>();
  private nextSweepAtMs = 0;

  constructor(
    readonly name: PolicyName,
    readonly points: number,
    readonly windowSeconds: number,
  ) {}

  consume(key: string, nowMs: number): { ok: boolean; state: PolicyState } {
    let window = this.windows.get(key);
    if (window === undefined || window.endsAtMs <= nowMs) {
      this.sweep(nowMs);
      window = { count: 0, endsAtMs: nowMs + this.windowSeconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return {
      ok: window.count <= this.points,
      state: {
        policy: this.name,
        limit: this.points,
        remaining: Math.max(0, this.points - window.count),
        resetSeconds: Math.max(1, Math.ceil((window.endsAtMs - nowMs) / 1000)),
        windowSeconds: this.windowSeconds,
      },
    };
  }

  /** Gives back one request: a refusal by a later limit does not count against this one. */
  reward(key: string): void {
    const window = this.windows.get(key);
    if (window !== undefined && window.count > 0) window.count -= 1;
  }

  /** Forgets ended windows, at most once per window length, so idle keys do not accumulate. */
  private sweep(nowMs: number): void {
    if (nowMs < this.nextSweepAtMs) return;
    this.nextSweepAtMs = nowMs + this.windowSeconds * 1000;
    for (const [key, window] of this.windows) if (window.endsAtMs <= nowMs) this.windows.delete(key);
  }
}

/** Applies in-memory limiters in order, as consumeAll does. */
function consumeAllNow(limiters: MemoryWindows[], key: string, nowMs: number): RateDecision {
  const states: PolicyState[] = [];
  for (let index = 0; index < limiters.length; index += 1) {
    const outcome = limiters[index]!.consume(key, nowMs);
    states.push(outcome.state);
    if (!outcome.ok) {
      for (let earlier = 0; earlier < index; earlier += 1) limiters[earlier]!.reward(key);
      return { allowed: false, refusedBy: outcome.state, states };
    }
  }
  return { allowed: true, states };
}

/**
 * Fixed 60-second windows per key. With Redis, counters live there (atomic Lua increments, one budget for all
 * instances); if Redis fails, each instance falls back to its own memory limiter rather than refusing traffic.
 * Without Redis, each instance counts in its own memory (MemoryWindows). `nowMs` is the clock (tests move it).
 */
export function createRateLimits(
  settings: RateLimitSettings,
  redis: { client: Redis; prefix: string } | null,
  onFallback: (error: unknown) => void = () => {},
  nowMs: () => number = Date.now,
): RateLimits {
  if (!redis) return createMemoryRateLimits(settings, nowMs);
  const make = (name: PolicyName, points: number, windowSeconds: number): Limiter => {
    const insurance = new RateLimiterMemory({
      points,
      duration: windowSeconds,
      keyPrefix: `${name}-fallback`,
    });
    const limiter = new RateLimiterRedis({
      storeClient: redis.client,
      points,
      duration: windowSeconds,
      keyPrefix: `${redis.prefix}:rl:${name}`,
      rejectIfRedisNotReady: true,
      insuranceLimiter: insurance,
    });
    // Wrap the insurance so the service can log that Redis failed over.
    const originalConsume = insurance.consume.bind(insurance);
    insurance.consume = (key, pointsToConsume, options) => {
      onFallback(new Error(`rate limit ${name} fell back to memory`));
      return originalConsume(key, pointsToConsume, options);
    };
    return { name, limiter, points, windowSeconds };
  };

  const general = make("general", settings.generalPerMinute, 60);
  const ai = make("ai", settings.aiPerMinute, 60);
  const ip = make("ip", settings.ipPerMinute, 60);
  const login = make("login", settings.loginPerQuarterHour, 900);

  return {
    backend: "redis",
    settings,
    consumeForKey: (keyId, isAi) => consumeAll(isAi ? [general, ai] : [general], keyId),
    consumeForKeyNow: () => null,
    consumeForIp: (address) => consumeAll([ip], address),
    consumeLogin: (subject) => consumeAll([login], subject),
  };
}

function createMemoryRateLimits(settings: RateLimitSettings, nowMs: () => number): RateLimits {
  const general = new MemoryWindows("general", settings.generalPerMinute, 60);
  const ai = new MemoryWindows("ai", settings.aiPerMinute, 60);
  const ip = new MemoryWindows("ip", settings.ipPerMinute, 60);
  const login = new MemoryWindows("login", settings.loginPerQuarterHour, 900);
  const generalOnly = [general];
  const generalAndAi = [general, ai];
  const consumeForKeyNow = (keyId: string, isAi: boolean) =>
    consumeAllNow(isAi ? generalAndAi : generalOnly, keyId, nowMs());
  return {
    backend: "memory",
    settings,
    consumeForKey: async (keyId, isAi) => consumeForKeyNow(keyId, isAi),
    consumeForKeyNow,
    consumeForIp: async (address) => consumeAllNow([ip], address, nowMs()),
    consumeLogin: async (subject) => consumeAllNow([login], subject, nowMs()),
  };
}

/**
 * `"general";q=120;w=60` by policy, limit and window: the settings are fixed, so each item is built once rather than
 * on every response. Nested maps so that finding one allocates nothing.
 */
const policyItems = new Map<PolicyName, Map<number, Map<number, string>>>();

function policyItem(state: PolicyState): string {
  let byLimit = policyItems.get(state.policy);
  if (byLimit === undefined) policyItems.set(state.policy, (byLimit = new Map()));
  let byWindow = byLimit.get(state.limit);
  if (byWindow === undefined) byLimit.set(state.limit, (byWindow = new Map()));
  let item = byWindow.get(state.windowSeconds);
  if (item === undefined)
    byWindow.set(state.windowSeconds, (item = `"${state.policy}";q=${state.limit};w=${state.windowSeconds}`));
  return item;
}

/**
 * The IETF httpapi draft fields plus the widely used RateLimit-* trio, for the tightest applicable limit. Names in
 * lower case, as Fastify stores them, so they are not lowered again on every request.
 */
export function rateLimitHeaders(states: PolicyState[]): Record<string, string> {
  if (states.length === 0) return {};
  let tightest = states[0]!;
  let policy = policyItem(tightest);
  for (let index = 1; index < states.length; index += 1) {
    const state = states[index]!;
    if (
      state.remaining < tightest.remaining ||
      (state.remaining === tightest.remaining && state.resetSeconds > tightest.resetSeconds)
    )
      tightest = state;
    policy = `${policy}, ${policyItem(state)}`;
  }
  return {
    "ratelimit-policy": policy,
    ratelimit: `"${tightest.policy}";r=${tightest.remaining};t=${tightest.resetSeconds}`,
    "ratelimit-limit": String(tightest.limit),
    "ratelimit-remaining": String(tightest.remaining),
    "ratelimit-reset": String(tightest.resetSeconds),
  };
}
