import { eq } from "drizzle-orm";
import { AccountStore } from "../accounts/account-store.ts";
import { chargeKinds, type ChargeKind } from "../billing/charging.ts";
import type { Runtime } from "../runtime.ts";
import { newId } from "../shared/ids.ts";
import { accounts } from "../storage/schema.ts";
import { changelogPosts } from "./operator-schema.ts";
import { withdrawableEndpoints, type WithdrawableEndpoint } from "./withdrawals.ts";

/** A price may change only with at least this much notice, so developers can plan. */
export const priceNoticeDays = 30;
const dayMs = 24 * 60 * 60 * 1000;

export type OperatorOutcome = { ok: true; lines: string[] } | { ok: false; reason: string };

const refuse = (reason: string): OperatorOutcome => ({ ok: false, reason });

/** `--name value` pairs after the command words. */
export function parseFlags(words: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (word?.startsWith("--")) {
      const value = words[index + 1];
      flags.set(word.slice(2), value !== undefined && !value.startsWith("--") ? value : "");
      if (value !== undefined && !value.startsWith("--")) index += 1;
    }
  }
  return flags;
}

function activeDevelopers(runtime: Runtime): Promise<{ id: string; email: string }[]> {
  return runtime.storage.db
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(eq(accounts.status, "active"));
}

async function emailEveryDeveloper(runtime: Runtime, subject: string, text: string): Promise<number> {
  const recipients = await activeDevelopers(runtime);
  for (const recipient of recipients) {
    await runtime.billing.mailer.send({ accountId: recipient.id, to: recipient.email, subject, text });
  }
  return recipients.length;
}

/** `prices schedule --kind K --pence P --effective DATE`: refused under 30 days ahead; every developer is told. */
export async function schedulePrice(runtime: Runtime, flags: Map<string, string>): Promise<OperatorOutcome> {
  const kind = flags.get("kind") ?? "";
  if (!(chargeKinds as readonly string[]).includes(kind))
    return refuse(`--kind must be one of ${chargeKinds.join(", ")}`);
  const pence = Number(flags.get("pence"));
  if (!Number.isInteger(pence) || pence < 0 || pence > 10_000)
    return refuse("--pence must be a whole number of pence from 0 to 10000");
  const effective = new Date(flags.get("effective") ?? "");
  if (Number.isNaN(effective.getTime())) return refuse("--effective must be a date such as 2027-03-01");
  const now = runtime.clock.now();
  const earliest = new Date(now.getTime() + priceNoticeDays * dayMs);
  if (effective < earliest) {
    return refuse(
      `a price change needs ${priceNoticeDays} days' notice: --effective must be on or after ${earliest.toISOString().slice(0, 10)}`,
    );
  }
  const current = await runtime.billing.priceBook.priceAt(kind as ChargeKind, effective);
  await runtime.billing.priceBook.schedule(kind as ChargeKind, pence, effective);
  const day = effective.toISOString().slice(0, 10);
  const told = await emailEveryDeveloper(
    runtime,
    `Syllabi price change from ${day}`,
    `From ${day}, each ${kind.replace("_", " ")} call will cost ${pence}p (it costs ${current}p until then).\n\n` +
      "Calls made before that date keep the price they were charged at. Your balance and keys are unchanged.",
  );
  return {
    ok: true,
    lines: [`${kind} costs ${pence}p from ${effective.toISOString()}; ${told} developer(s) emailed`],
  };
}

/** `changelog post --title T --body B`: published in the portal and emailed to every developer. */
export async function postChangelog(runtime: Runtime, flags: Map<string, string>): Promise<OperatorOutcome> {
  const title = (flags.get("title") ?? "").trim();
  const body = (flags.get("body") ?? "").trim();
  if (title.length < 3 || title.length > 120) return refuse("--title must be 3 to 120 characters");
  if (body.length < 3 || body.length > 5000) return refuse("--body must be 3 to 5000 characters");
  const id = newId("chg");
  await runtime.storage.db.insert(changelogPosts).values({ id, title, body, postedAt: runtime.clock.now() });
  const told = await emailEveryDeveloper(runtime, `Syllabi changelog: ${title}`, body);
  return { ok: true, lines: [`posted ${id}; ${told} developer(s) emailed`] };
}

function endpointFrom(flags: Map<string, string>): WithdrawableEndpoint | null {
  const endpoint = flags.get("endpoint") ?? "";
  return (withdrawableEndpoints as readonly string[]).includes(endpoint)
    ? (endpoint as WithdrawableEndpoint)
    : null;
}

/**
 * `endpoint withdraw --endpoint E --reason R [--refund]`: every instance answers 410 within seconds. A permanent
 * withdrawal can take away what developers topped up for, so `--refund` also returns every active developer's
 * unspent balance through the payment provider (whatever the top-up's age) and tells them why.
 */
export async function withdrawEndpoint(
  runtime: Runtime,
  flags: Map<string, string>,
): Promise<OperatorOutcome> {
  const endpoint = endpointFrom(flags);
  if (!endpoint) return refuse(`--endpoint must be one of ${withdrawableEndpoints.join(", ")}`);
  const reason = (flags.get("reason") ?? "").trim();
  if (reason.length < 3) return refuse("--reason is required (it is kept for the record)");
  await runtime.withdrawals.withdraw(endpoint, reason);
  if (!flags.has("refund")) return { ok: true, lines: [`${endpoint} withdrawn`] };

  const developers = await activeDevelopers(runtime);
  let refundedPence = 0;
  let failures = 0;
  for (const developer of developers) {
    let mine = 0;
    for (const lot of await runtime.ledger.refundableTopUps(developer.id)) {
      const refunded = await runtime.billing.billing.refundTopUp(developer.id, lot.id, false);
      if (refunded.ok) mine += refunded.refundedPence;
      else failures += 1;
    }
    if (mine === 0) continue;
    refundedPence += mine;
    await runtime.billing.mailer.send({
      accountId: developer.id,
      to: developer.email,
      subject: `Syllabi has withdrawn ${endpoint.replace("_", " ")}: your balance is refunded`,
      text:
        `We have permanently withdrawn the ${endpoint.replace("_", " ")} endpoint (${reason}). ` +
        `We have refunded your unspent balance of ${(mine / 100).toFixed(2)} GBP to your card. Your account and keys stay open.`,
    });
  }
  const lines = [
    `${endpoint} withdrawn; ${refundedPence}p refunded across ${developers.length} developer(s)`,
  ];
  if (failures > 0) lines.push(`${failures} refund(s) failed at the provider and were left on the balance`);
  return { ok: true, lines };
}

export async function restoreEndpoint(
  runtime: Runtime,
  flags: Map<string, string>,
): Promise<OperatorOutcome> {
  const endpoint = endpointFrom(flags);
  if (!endpoint) return refuse(`--endpoint must be one of ${withdrawableEndpoints.join(", ")}`);
  await runtime.withdrawals.restore(endpoint);
  return { ok: true, lines: [`${endpoint} restored`] };
}

/**
 * `account suspend --email E`: ends access for breach; keys stop working on every instance at once, and the
 * monthly and automatic top-ups stop. The balance is not refunded (the contract's rule for a breach).
 */
export async function suspendAccount(runtime: Runtime, flags: Map<string, string>): Promise<OperatorOutcome> {
  const email = (flags.get("email") ?? "").trim();
  if (!email) return refuse("--email is required");
  const store = new AccountStore(runtime.storage.db);
  const account = await store.byEmail(email);
  if (!account) return refuse(`no account with email ${email}`);
  if (account.status === "closed") return refuse("that account is closed already");
  await store.setStatus(account.id, "suspended");
  await runtime.keys.announceAccountChange(account.id);
  // No card is charged for a suspended account: no next month, no automatic top-up.
  await runtime.billing.subscriptions.cancel(account.id);
  await runtime.billing.autoTopUp.switchOff(account.id);
  return { ok: true, lines: [`account ${account.id} suspended`] };
}

/** `usage rollup`: runs this five-minute cycle now, unless an instance already has. */
export async function rollUpUsage(runtime: Runtime): Promise<OperatorOutcome> {
  const ran = await runtime.billing.usage.runCycle();
  return {
    ok: true,
    lines: [ran ? "usage rolled up" : "this cycle was already rolled up by another instance"],
  };
}
