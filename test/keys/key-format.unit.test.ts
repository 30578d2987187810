import { createSecretKey } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateKey, hashKey, inspectKeyShape, keyPrefix } from "../../src/keys/key-format.ts";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const keyLength = keyPrefix.length + 32 + 6;

/** Keys come from the CSPRNG, not from fast-check's seed; fast-check picks which one to use and how to damage it. */
const keys = fc.integer({ min: 0, max: 1_000_000 }).map(() => generateKey());

/** Characters a typo, a copy-paste accident or an attacker might put in: base62, punctuation and beyond ASCII. */
const replacement = fc.oneof(
  fc.constantFrom(...base62),
  fc.constantFrom("_", "-", " ", "=", "/", "+", ".", "\u0000", "\n"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

describe("API key format", () => {
  it("generates keys that read back as well formed, with the display prefix taken from the random part", () => {
    fc.assert(
      fc.property(keys, ({ secret, displayPrefix }) => {
        expect(secret).toMatch(/^syl_live_[0-9A-Za-z]{38}$/);
        expect(secret).toHaveLength(keyLength);
        expect(displayPrefix).toBe(secret.slice(keyPrefix.length, keyPrefix.length + 8));
        expect(inspectKeyShape(secret)).toBe("well_formed");
      }),
    );
  });

  it("refuses every key with any single character changed", () => {
    fc.assert(
      fc.property(keys, fc.nat(keyLength - 1), replacement, ({ secret }, position, character) => {
        fc.pre(secret[position] !== character);
        const damaged = secret.slice(0, position) + character + secret.slice(position + 1);
        expect(inspectKeyShape(damaged)).not.toBe("well_formed");
      }),
      { numRuns: 2000 },
    );
  });

  it("names a base62 typo in the random part or the checksum as a checksum failure", () => {
    fc.assert(
      fc.property(
        keys,
        fc.integer({ min: keyPrefix.length, max: keyLength - 1 }),
        fc.constantFrom(...base62),
        ({ secret }, position, character) => {
          fc.pre(secret[position] !== character);
          const damaged = secret.slice(0, position) + character + secret.slice(position + 1);
          expect(inspectKeyShape(damaged)).toBe("bad_checksum");
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("refuses keys with a character dropped, added or two characters swapped", () => {
    fc.assert(
      fc.property(
        keys,
        fc.nat(keyLength - 1),
        fc.constantFrom(...base62),
        ({ secret }, position, character) => {
          const dropped = secret.slice(0, position) + secret.slice(position + 1);
          const added = secret.slice(0, position) + character + secret.slice(position);
          expect(inspectKeyShape(dropped)).toBe("malformed");
          expect(inspectKeyShape(added)).toBe("malformed");
          const next = position + 1;
          if (next < keyLength && secret[position] !== secret[next]) {
            const swapped =
              secret.slice(0, position) + secret[next] + secret[position] + secret.slice(next + 1);
            expect(inspectKeyShape(swapped)).not.toBe("well_formed");
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("never throws on arbitrary input and only accepts the exact shape", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (input) => {
        const shape = inspectKeyShape(input);
        if (!/^syl_live_[0-9A-Za-z]{38}$/.test(input)) expect(shape).toBe("malformed");
      }),
      { numRuns: 2000 },
    );
  });

  it("stores a pepper-dependent HMAC: the same key and pepper always agree, another key or pepper never does", () => {
    const pepper = "a-test-pepper-that-is-long-enough-0123";
    fc.assert(
      fc.property(keys, keys, ({ secret }, other) => {
        fc.pre(secret !== other.secret);
        const hash = hashKey(secret, pepper);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(hashKey(secret, pepper)).toBe(hash);
        expect(hashKey(other.secret, pepper)).not.toBe(hash);
        expect(hashKey(secret, `${pepper}x`)).not.toBe(hash);
        // The service hashes with the pepper made into a KeyObject once: the same HMAC.
        expect(hashKey(secret, createSecretKey(Buffer.from(pepper, "utf8")))).toBe(hash);
      }),
      { numRuns: 200 },
    );
  });
});
