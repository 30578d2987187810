import { randomBase62 } from "../shared/ids.ts";
import type { Runtime } from "../runtime.ts";
import { testCards } from "../payments/embedded/embedded-provider.ts";

export type BootstrapOutcome =
  { ok: true; accountId: string; key: string; balancePence: number } | { ok: false; reason: string };

/**
 * `syllabi dev bootstrap --email E`: a developer, a key and a £10 top-up paid through the embedded provider
 * (checkout, success card, signed webhook), so a fresh machine can call the API at once.
 */
export async function devBootstrap(runtime: Runtime, email: string): Promise<BootstrapOutcome> {
  const embedded = runtime.billing.embedded;
  if (!embedded)
    return { ok: false, reason: "dev bootstrap pays through the embedded provider; unset STRIPE_*" };
  const account = await runtime.accounts.register({
    email,
    password: randomBase62(24),
    name: "Local developer",
    useCase: "Local development, made by syllabi dev bootstrap",
  });
  if (account === "email_taken") return { ok: false, reason: `an account with ${email} already exists` };
  const created = await runtime.keys.create(account.id, { name: "bootstrap" });
  if (created === "limit_reached") return { ok: false, reason: "key limit reached" };
  const checkout = await runtime.billing.billing.startCheckout(account.id, 1000);
  const paid = await embedded.settle(checkout.checkoutId, testCards.success);
  if (paid.kind !== "paid") return { ok: false, reason: `payment failed: ${paid.kind}` };
  const balancePence = await runtime.billing.ledger.balance(account.id);
  if (balancePence < 1000) return { ok: false, reason: "the top-up webhook was not acknowledged" };
  return { ok: true, accountId: account.id, key: created.secret, balancePence };
}
