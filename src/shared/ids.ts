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
 * Base62 characters for ids, made from CSPRNG bytes a few kilobytes at a time (the same rejection sampling as
 * randomBase62) and kept as one string: an id is a slice of it. Asking the system for bytes per id, then building
 * each id from an array of character codes, cost a visible share of a data request (one id per request) and most of
 * the garbage it left. Secrets (API keys, session tokens) never come from this pool.
 */
const idPool = { characters: "", offset: 0 };
const idPoolBytes = 4096;

const base62CharCodes = Array.from(base62Alphabet, (character) => character.charCodeAt(0));

function refillIdPool(): void {
  const bytes = randomBytes(idPoolBytes);
  let length = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (byte < 248) bytes[length++] = base62CharCodes[byte % 62]!;
  }
  idPool.characters = bytes.toString("latin1", 0, length);
  idPool.offset = 0;
}

function pooledBase62(length: number): string {
  // What is left of a pool too short for this id is dropped: unused random characters bias nothing.
  if (idPool.offset + length > idPool.characters.length) refillIdPool();
  const characters = idPool.characters.slice(idPool.offset, idPool.offset + length);
  idPool.offset += length;
  return characters;
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
