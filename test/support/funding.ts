import { api, createDeveloper, type TestApp } from "./harness.ts";

/** Credits a confirmed top-up through the ledger, as the payment webhook does. */
export async function fund(app: TestApp, accountId: string, amountPence: number): Promise<void> {
  const ledger = app.runtime.ledger;
  const topUpId = await ledger.openTopUp({ accountId, amountPence, method: "manual", checkoutId: null });
  await ledger.creditTopUp(topUpId, `pay_test_${topUpId}`);
  await app.runtime.keys.announceAccountChange(accountId);
}

/** A developer with a key and, unless told otherwise, £10 on the balance. */
export async function fundedDeveloper(app: TestApp, pence = 1000) {
  const developer = await createDeveloper(app);
  if (pence > 0) await fund(app, developer.accountId, pence);
  return developer;
}

export async function balanceOf(app: TestApp, key: string): Promise<number> {
  const account = await api(app, key, "GET", "/api/v1/account");
  return (account.json.billing as { balancePence: number }).balancePence;
}
