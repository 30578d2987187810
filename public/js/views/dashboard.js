import { loadBilling, loadUsage, pricesFrom } from "../billing-data.js";
import { usageChart } from "../chart.js";
import { h, notice } from "../dom.js";
import { dateTime, pounds, price } from "../format.js";

function stat(label, value, ...extra) {
  return h(
    "div",
    { class: "card" },
    h("h2", { class: "small muted" }, label),
    h("p", { class: "stat" }, value),
    ...extra,
  );
}

export const dashboardView = {
  title: "Dashboard",
  signedIn: true,
  async render({ account }) {
    const [billing, usage] = await Promise.all([
      loadBilling(),
      // An unexpected usage shape costs the chart, not the page.
      loadUsage(30).catch(() => ({
        available: true,
        failed: true,
        result: { data: {}, status: "unreadable" },
      })),
    ]);
    const unlocked = billing.available && !billing.failed ? billing.dataUnlocked : account.dataUnlocked;
    const haveBilling = billing.available && !billing.failed;
    const prices = pricesFrom(haveBilling ? billing : null);

    const unlockCard = h(
      "div",
      { class: "card" },
      h("h2", { class: "small muted" }, "Curriculum data"),
      h("p", { class: "stat", id: "data-status" }, unlocked ? "Unlocked" : "Locked"),
      h(
        "p",
        { class: "small" },
        unlocked
          ? "Subjects, topic trees, search and spec points are free for this account."
          : "The four data endpoints answer 402 topup_required until your first top-up confirms. After that they are free; only align, chat and questions cost money.",
      ),
      unlocked ? null : h("a", { class: "button", href: "#/billing" }, "Top up to unlock"),
    );

    const billingCards = haveBilling
      ? [
          stat(
            "Balance",
            h("span", { id: "balance" }, pounds(billing.balancePence)),
            h("a", { href: "#/billing" }, "Top up or change billing"),
          ),
          unlockCard,
          stat("Lifetime spend", pounds(billing.lifetimeSpendPence)),
        ]
      : [unlockCard];

    let usageSection;
    if (!usage.available) {
      usageSection = notice(
        "warning",
        "Usage history is not available on this server yet. Your calls are still recorded.",
      );
    } else if (usage.failed) {
      usageSection = notice(
        "error",
        `Usage could not be loaded: ${usage.result.data.message ?? usage.result.status}.`,
      );
    } else {
      usageSection = h(
        "div",
        {},
        usageChart(usage.rows, 30),
        h(
          "p",
          { class: "small muted" },
          usage.refreshedAt
            ? `Figures refreshed ${dateTime(usage.refreshedAt)}; they are updated every five minutes, so the newest calls may be missing.`
            : "Figures are updated every five minutes, so the newest calls may be missing.",
        ),
      );
    }

    return h(
      "section",
      {},
      h("h1", {}, `Welcome, ${account.name}`),
      billing.available
        ? billing.failed
          ? notice(
              "error",
              `Billing could not be loaded: ${billing.result.data.message ?? `status ${billing.result.status}`}.`,
            )
          : null
        : notice(
            "warning",
            "Billing is not available on this server yet, so the balance and top-ups cannot be shown.",
          ),
      h("div", { class: "grid" }, billingCards),
      h("div", { class: "card" }, h("h2", {}, "Calls in the last 30 days"), usageSection),
      h(
        "div",
        { class: "card" },
        h("h2", {}, "Prices"),
        h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            {},
            h(
              "thead",
              {},
              h("tr", {}, h("th", { scope: "col" }, "Call"), h("th", { scope: "col" }, "Price")),
            ),
            h(
              "tbody",
              {},
              [
                ["Curriculum data (subjects, trees, search, spec points)", "Free after first top-up"],
                ["Align text to the curriculum", price(prices.alignPence)],
                ["Genie chat, per assistant reply", price(prices.genieChatPence)],
                ["Custom chat, per assistant reply", price(prices.chatPence)],
                ["Question set", price(prices.questionSetPence)],
                ["Account", "Free"],
              ].map(([name, value]) => h("tr", {}, h("td", {}, name), h("td", {}, value))),
            ),
          ),
        ),
        h(
          "p",
          { class: "small muted" },
          "Refusals, safeguarding responses, validation errors and faults on our side are never charged.",
        ),
      ),
      h(
        "div",
        { class: "card" },
        h("h2", {}, "Next steps"),
        h(
          "ol",
          {},
          h("li", {}, h("a", { href: "#/keys" }, "Create an API key"), " — it is shown once."),
          h("li", {}, h("a", { href: "#/billing" }, "Top up"), " to unlock the data and fund paid calls."),
          h(
            "li",
            {},
            "Try it in the ",
            h("a", { href: "#/playground" }, "playground"),
            " or follow the ",
            h("a", { href: "#/docs" }, "quick start"),
            ".",
          ),
        ),
      ),
    );
  },
};
