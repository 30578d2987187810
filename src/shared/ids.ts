import { randomBytes } from "node:crypto";

const base62Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 characters from the CSPRNG (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: bytes at or above it would bias the first characters of the alphabet.
      if (byte < 248) out += base62Alphabet[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function toBase62(value: number, width: number): string {
  let remaining = value;
  let out = "";
  for (let index = 0; index < width; index += 1) {
    out = base62Alphabet[remaining % 62] + out;
    remaining = Math.floor(remaining / 62);
  }
  return out;
}

export type IdPrefix =
  "acct" | "key" | "req" | "chat" | "chg" | "top" | "ent" | "evt" | "chk" | "msg" | "ref" | "sub";

/**
 * CSPRNG bytes for ids, drawn a few kilobytes at a time: asking the system for 40 bytes per id cost a visible share
 * of a data request (one id per request). Secrets (API keys, session tokens) never come from this pool.
 */
const idPool = { bytes: Buffer.alloc(0), offset: 0 };
const idPoolBytes = 4096;

const base62CharCodes = Array.from(base62Alphabet, (character) => character.charCodeAt(0));

/** The characters' codes are gathered first and made into one string: appending them one by one made twenty. */
function pooledBase62(length: number): string {
  const codes: number[] = [];
  while (codes.length < length) {
    if (idPool.offset >= idPool.bytes.length) {
      idPool.bytes = randomBytes(idPoolBytes);
      idPool.offset = 0;
    }
    const byte = idPool.bytes[idPool.offset++]!;
    if (byte < 248) codes.push(base62CharCodes[byte % 62]!);
  }
  return String.fromCharCode(...codes);
}

/** A prefixed, sortable-enough, unguessable id such as `acct_3fK9…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${pooledBase62(20)}`;
}

/** A clock behind an interface, so tests can move time (14-day refunds, sweeps, rollups). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
