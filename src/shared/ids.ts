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

/** A prefixed, sortable-enough, unguessable id such as `acct_3fK9…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}

/** A clock behind an interface, so tests can move time (14-day refunds, sweeps, rollups). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
