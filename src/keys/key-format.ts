import { createHmac, timingSafeEqual, type KeyObject } from "node:crypto";
import { crc32 } from "node:zlib";
import { randomBase62, toBase62 } from "../shared/ids.ts";

/**
 * `syl_live_` + 32 base62 characters (≈190 bits) + a 6-character base62 CRC32 checksum of what precedes it,
 * so secret scanners can recognise a key and typos are refused before any lookup.
 */
export const keyPrefix = "syl_live_";
const randomLength = 32;
const checksumLength = 6;
const keyPattern = new RegExp(`^${keyPrefix}[0-9A-Za-z]{${randomLength}}[0-9A-Za-z]{${checksumLength}}$`);

function checksumOf(body: string): string {
  return toBase62(crc32(body), checksumLength);
}

export interface GeneratedKey {
  secret: string;
  /** The first 8 random characters, safe to show. */
  displayPrefix: string;
}

export function generateKey(): GeneratedKey {
  const random = randomBase62(randomLength);
  const body = `${keyPrefix}${random}`;
  return { secret: `${body}${checksumOf(body)}`, displayPrefix: random.slice(0, 8) };
}

export type KeyShape = "well_formed" | "malformed" | "bad_checksum";

export function inspectKeyShape(secret: string): KeyShape {
  if (!keyPattern.test(secret)) return "malformed";
  const body = secret.slice(0, -checksumLength);
  const given = Buffer.from(secret.slice(-checksumLength));
  const expected = Buffer.from(checksumOf(body));
  return timingSafeEqual(given, expected) ? "well_formed" : "bad_checksum";
}

/**
 * What is stored: HMAC-SHA-256 of the secret under the server pepper, hex. A pepper made into a KeyObject once
 * (`createSecretKey`) spares preparing the key on every call.
 */
export function hashKey(secret: string, pepper: string | KeyObject): string {
  return createHmac("sha256", pepper).update(secret).digest("hex");
}
