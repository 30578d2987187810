import { platform } from "./api.js";
import { launchPrices } from "./format.js";

/**
 * GET /platform/api/billing, read tolerantly (unknown fields ignored). `available` is false when the
 * server has no billing routes (404), so pages can say so instead of failing.
 */
export async function loadBilling() {
  const result = await platform("GET", "/billing");
  if (result.status === 404) return { available: false, result };
  if (!result.ok) return { available: true, failed: true, result };
  const data = result.data.billing ?? result.data;
  return {
    available: true,
    failed: false,
    balancePence: data.balancePence ?? null,
    dataUnlocked: Boolean(data.dataUnlocked),
    lifetimeSpendPence: data.lifetimeSpendPence ?? null,
    topUps: data.topUps ?? data.topups ?? [],
    subscription: data.subscription ?? null,
    autoTopUp: data.autoTopUp ?? { enabled: false, thresholdPence: null, amountPence: null },
    paymentMethod: data.paymentMethod ?? data.savedPaymentMethod ?? null,
    prices: data.prices ?? null,
  };
}

export function pricesFrom(billing) {
  return { ...launchPrices, ...(billing?.prices ?? {}) };
}

/**
 * GET /platform/api/usage?days=30 flattened to rows `{ date: "YYYY-MM-DD", kind, calls, spendPence }`,
 * whether the server groups by day or by kind.
 */
export async function loadUsage(days = 30) {
  const result = await platform("GET", `/usage?days=${days}`);
  if (result.status === 404) return { available: false };
  if (!result.ok) return { available: true, failed: true, result };
  const data = result.data.usage ?? result.data;
  const rows = [];
  const push = (date, kind, entry) =>
    rows.push({
      date: String(date).slice(0, 10),
      kind: kind ?? "all",
      calls: Number(entry.calls ?? 0),
      spendPence: Number(entry.spendPence ?? 0),
    });
  const series = [data.series, data.days, data.daily, data.byDay].find(Array.isArray) ?? [];
  for (const day of series) {
    const kinds = day.byKind ?? day.kinds;
    if (Array.isArray(kinds)) for (const entry of kinds) push(day.day ?? day.date, entry.kind, entry);
    else push(day.day ?? day.date, day.kind, day);
  }
  if (!series.length && Array.isArray(data.byKind)) {
    for (const kind of data.byKind) {
      for (const day of [kind.days, kind.series].find(Array.isArray) ?? [])
        push(day.day ?? day.date, kind.kind, day);
    }
  }
  return { available: true, failed: false, rows, refreshedAt: data.refreshedAt ?? null };
}
