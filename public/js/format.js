const money = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short" });

export function pounds(pence) {
  return typeof pence === "number" ? money.format(pence / 100) : "—";
}

/** "1p", "4p", or pounds for larger amounts: how prices read best. */
export function price(pence) {
  return pence < 100 ? `${pence}p` : pounds(pence);
}

export function dateTime(iso) {
  return iso ? dateTimeFormat.format(new Date(iso)) : "—";
}

export function shortDate(date) {
  return dateFormat.format(date);
}

export const launchPrices = { alignPence: 1, genieChatPence: 4, chatPence: 4, questionSetPence: 8 };
export const topUpAmountsPence = [1000, 2500, 10000];
