import { createHmac, timingSafeEqual } from "node:crypto";

export const signatureHeader = "embedded-signature";
export const signatureToleranceSeconds = 300;

/** Stripe-style: `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">`. */
export function signPayload(secret: string, rawBody: string, timestampSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${timestampSeconds}.${rawBody}`).digest("hex");
  return `t=${timestampSeconds},v1=${mac}`;
}

export function verifySignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
  nowSeconds: number,
): { ok: true } | { ok: false; reason: string } {
  if (!header) return { ok: false, reason: "missing signature header" };
  const parts = new Map(
    header.split(",").map((part) => {
      const [name, ...value] = part.trim().split("=");
      return [name ?? "", value.join("=")] as const;
    }),
  );
  const timestamp = Number(parts.get("t"));
  const given = parts.get("v1");
  if (!Number.isInteger(timestamp) || !given) return { ok: false, reason: "malformed signature header" };
  if (Math.abs(nowSeconds - timestamp) > signatureToleranceSeconds)
    return { ok: false, reason: "timestamp outside the tolerance" };
  const expected = Buffer.from(signPayload(secret, rawBody, timestamp).split("v1=")[1] ?? "", "hex");
  const actual = Buffer.from(given, "hex");
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
    return { ok: false, reason: "signature does not match" };
  return { ok: true };
}
