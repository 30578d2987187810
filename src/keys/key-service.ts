import { createSecretKey, hash, type KeyObject } from "node:crypto";
import type { Clock } from "../shared/ids.ts";
import { newId } from "../shared/ids.ts";
import type { SignalBus } from "../signals/signal-bus.ts";
import { generateKey, hashKey, inspectKeyShape } from "./key-format.ts";
import type { KeyPrincipal, KeyRecord, KeyStore } from "./key-store.ts";
import type { Scope } from "./scopes.ts";
import { scopes as allScopes } from "./scopes.ts";

export type Authentication =
  | { ok: true; principal: KeyPrincipal }
  | { ok: false; reason: "missing_api_key" | "invalid_api_key" | "revoked_api_key" };

interface CachedPrincipal {
  principal: KeyPrincipal;
  expiresAtMs: number;
}

const cacheTtlMs = 30_000;
const lastUsedWriteIntervalMs = 60_000;

const bearerPrefix = "Bearer ";

/**
 * The token of `Bearer <token>` (surrounding whitespace ignored, none inside the token), or null. String checks
 * rather than a regular expression with a capture: this runs on every request.
 */
function bearerSecret(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  const value = authorization.trim();
  if (!value.startsWith(bearerPrefix) || value.length === bearerPrefix.length) return null;
  const secret = value.slice(bearerPrefix.length);
  return /\s/.test(secret) ? null : secret;
}

/** The cache's key for a secret: a digest, so the secret itself is not kept in memory. */
function cacheKeyOf(secret: string): string {
  return hash("sha256", secret, "base64");
}

/**
 * Authenticates bearer keys and manages their lifecycle. Principals are cached briefly per instance; the cache
 * is invalidated across instances by the signal bus (and bypassed while the bus is unhealthy), so a revocation
 * is seen everywhere within a second.
 */
export class KeyService {
  /**
   * By a SHA-256 digest of the secret, which stays in this process: a key seen within the TTL is found without
   * the checksum and the HMAC, the two largest costs of a cached check. Only well-formed keys that exist are kept.
   */
  private readonly cache = new Map<string, CachedPrincipal>();
  private readonly lastUsedWrittenAtMs = new Map<string, number>();
  private readonly pepperKey: KeyObject;

  constructor(
    private readonly store: KeyStore,
    private readonly bus: SignalBus,
    private readonly clock: Clock,
    pepper: string,
  ) {
    this.pepperKey = createSecretKey(Buffer.from(pepper, "utf8"));
    bus.subscribe("key-revoked", () => this.cache.clear());
    bus.subscribe("account-changed", (accountId) => this.forgetAccount(accountId));
  }

  async authenticate(authorization: string | undefined): Promise<Authentication> {
    const secret = bearerSecret(authorization);
    if (secret === null) return { ok: false, reason: "missing_api_key" };
    const cacheKey = cacheKeyOf(secret);
    return this.knownOutcome(secret, cacheKey) ?? this.lookUp(secret, cacheKey);
  }

  /**
   * The outcome when it is known without the store — a missing or malformed key, or one seen within the cache's
   * TTL — so the per-request guard can decide without a promise; null when the key must be looked up.
   */
  authenticateNow(authorization: string | undefined): Authentication | null {
    const secret = bearerSecret(authorization);
    if (secret === null) return { ok: false, reason: "missing_api_key" };
    return this.knownOutcome(secret, cacheKeyOf(secret));
  }

  private knownOutcome(secret: string, cacheKey: string): Authentication | null {
    // While the signal channel is down, revocations may go unheard: forget everything cached, so that nothing
    // cached before or during the outage is trusted after it.
    if (!this.bus.healthy()) this.cache.clear();
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAtMs > nowMs) return this.admit(cached.principal, nowMs);
    if (inspectKeyShape(secret) !== "well_formed") return { ok: false, reason: "invalid_api_key" };
    return null;
  }

  /** A well-formed key not in the cache: by an HMAC of the whole secret, so no secret-dependent comparison here. */
  private async lookUp(secret: string, cacheKey: string): Promise<Authentication> {
    const principal = await this.store.findPrincipal(hashKey(secret, this.pepperKey));
    const nowMs = this.clock.now().getTime();
    if (!principal) {
      this.cache.delete(cacheKey);
      return { ok: false, reason: "invalid_api_key" };
    }
    this.cache.set(cacheKey, { principal, expiresAtMs: nowMs + cacheTtlMs });
    return this.admit(principal, nowMs);
  }

  private admit(principal: KeyPrincipal, nowMs: number): Authentication {
    if (principal.revoked) return { ok: false, reason: "revoked_api_key" };
    this.noteUse(principal.keyId, nowMs);
    return { ok: true, principal };
  }

  async create(
    accountId: string,
    input: { name: string; scopes?: Scope[] },
  ): Promise<{ key: KeyRecord; secret: string } | "limit_reached"> {
    const { secret, displayPrefix } = generateKey();
    const requested = input.scopes && input.scopes.length > 0 ? input.scopes : [...allScopes];
    const key = await this.store.insertLive({
      id: newId("key"),
      accountId,
      name: input.name,
      scopes: allScopes.filter((scope) => requested.includes(scope)),
      prefix: displayPrefix,
      secretHash: hashKey(secret, this.pepperKey),
      createdAt: this.clock.now(),
    });
    if (key === "limit_reached") return key;
    return { key, secret };
  }

  list(accountId: string): Promise<KeyRecord[]> {
    return this.store.list(accountId);
  }

  countLive(accountId: string): Promise<number> {
    return this.store.countLive(accountId);
  }

  async revoke(accountId: string, keyId: string): Promise<KeyRecord | null> {
    const key = await this.store.revoke(accountId, keyId, this.clock.now());
    if (key) await this.announceRevocation(accountId);
    return key;
  }

  async revokeAll(accountId: string): Promise<void> {
    await this.store.revokeAll(accountId, this.clock.now());
    await this.announceRevocation(accountId);
  }

  /** Tells every instance that an account's status or unlock flag changed. */
  async announceAccountChange(accountId: string): Promise<void> {
    this.forgetAccount(accountId);
    await this.publish("account-changed", accountId);
  }

  private async announceRevocation(accountId: string): Promise<void> {
    this.forgetAccount(accountId);
    await this.publish("key-revoked", accountId);
  }

  /**
   * The change is already stored; if the channel is down, every instance bypasses its cache until it is back
   * (above), so the change still holds everywhere and the caller's request need not fail.
   */
  private async publish(topic: "account-changed" | "key-revoked", accountId: string): Promise<void> {
    await this.bus.publish(topic, accountId).catch(() => {});
  }

  private forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.cache) {
      if (entry.principal.accountId === accountId) this.cache.delete(hash);
    }
  }

  /** last_used_at is informative: written at most once a minute per key, off the request path. */
  private noteUse(keyId: string, nowMs: number): void {
    const writtenAt = this.lastUsedWrittenAtMs.get(keyId) ?? 0;
    if (nowMs - writtenAt < lastUsedWriteIntervalMs) return;
    this.lastUsedWrittenAtMs.set(keyId, nowMs);
    void this.store.touch(keyId, new Date(nowMs)).catch(() => this.lastUsedWrittenAtMs.delete(keyId));
  }
}
