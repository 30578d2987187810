import { platform } from "../api.js";
import { loadBilling } from "../billing-data.js";
import { field, h, messageArea, notice, setFieldError } from "../dom.js";
import { dateTime, pounds, topUpAmountsPence } from "../format.js";

const methodNames = { manual: "One-off", subscription: "Monthly", automatic: "Automatic" };
const pendingWindowMs = 15 * 60 * 1000;
const maxPendingChecks = 10;
let pendingChecks = 0;
const failedStatuses = new Set(["failed", "declined", "canceled", "cancelled", "expired"]);

function unavailable(what) {
  return notice("warning", `${what} is not available on this server yet. Try again later.`);
}

/**
 * The embedded provider is part of this service, so its pages are opened on the origin the portal is on
 * (the configured public URL may name another host or port, e.g. behind a proxy); Stripe URLs are followed as given.
 */
function providerUrl(url) {
  const target = new URL(url, location.origin);
  return target.pathname.startsWith("/_pay/") ? `${target.pathname}${target.search}` : target.href;
}

/** Follows a provider URL (checkout, card setup); a 404 means the route does not exist here yet. */
async function goToProvider(messages, button, method, path, body, what) {
  messages.clear();
  button.disabled = true;
  const result = await platform(method, path, body);
  if (result.ok && result.data.url) {
    location.assign(providerUrl(result.data.url));
    return;
  }
  button.disabled = false;
  messages.show(
    "error",
    result.status === 404 && result.data.error === "not_found"
      ? `${what} is not available on this server yet.`
      : (result.data.message ?? `${what} failed.`),
  );
}

function amountSelect(name, selected) {
  return h(
    "select",
    { name },
    topUpAmountsPence.map((pence) =>
      h("option", { value: String(pence), selected: pence === selected }, pounds(pence)),
    ),
  );
}

/** Why a top-up failed, in a word for the history table. */
const failureLabels = {
  expired: "Expired",
  async_payment_failed: "Failed",
  provider_unavailable: "Failed",
  automatic_top_up_off: "Cancelled",
};

function statusBadge(topUp) {
  const status = String(topUp.status ?? "pending");
  if (failedStatuses.has(status))
    return h(
      "span",
      { class: "badge bad", title: topUp.failureReason ?? undefined },
      status === "failed" ? (failureLabels[topUp.failureReason] ?? "Declined") : status,
    );
  if (status === "succeeded" || status === "confirmed" || status === "paid")
    return h("span", { class: "badge good" }, "Paid");
  if (status === "pending") return h("span", { class: "badge" }, "Awaiting payment");
  return h("span", { class: "badge" }, status.replace(/_/g, " "));
}

const subscriptionStatusNames = { active: "Active", past_due: "Past due", pending: "Awaiting payment" };

/** What the provider's return address says happened (Stripe sends people back with ?checkout=…). */
const returnMessages = {
  cancelled: ["status", "Checkout cancelled. Nothing was charged."],
  card_saved: [
    "success",
    "Card details sent. The saved card shows here as soon as the provider confirms it.",
  ],
  subscribed: ["success", "Monthly top-up started. Thank you!"],
};

/** Appends the children that are there (DOM append would write "null"). */
function appendPresent(parent, ...children) {
  parent.append(...children.filter(Boolean));
}

/** Why automatic top-up was switched off by the service, for people. */
function switchedOffNotice(settings) {
  const reason = settings.disabledMessage ?? "the card was refused";
  return notice(
    "error",
    h("strong", {}, "Automatic top-up was switched off"),
    settings.disabledAt ? ` on ${dateTime(settings.disabledAt)}` : "",
    ` because your saved card was refused: ${reason.replace(/\.$/, "")}`,
    settings.disabledReason ? ` (${settings.disabledReason}).` : ".",
    " Manual top-ups still work. Save a working card, then switch automatic top-up back on.",
  );
}

export const billingView = {
  title: "Billing",
  signedIn: true,
  async render(context) {
    const { query, navigate, refreshSession } = context;
    const messages = messageArea();
    const section = h("section", {}, h("h1", {}, "Billing"), messages);
    const billing = await loadBilling();
    if (!billing.available) {
      section.append(
        unavailable("Billing"),
        h(
          "p",
          {},
          "Top-ups, monthly top-ups, automatic top-up and refunds will appear here once payments are switched on.",
        ),
      );
      section.append(closeAccountCard(messages, navigate, refreshSession));
      return section;
    }
    if (billing.failed) {
      section.append(
        notice(
          "error",
          `Billing could not be loaded: ${billing.result.data.message ?? billing.result.status}.`,
        ),
      );
      return section;
    }
    const rerender = async (message, where = ".message-area") => {
      const fresh = await billingView.render(context);
      if (message)
        (fresh.querySelector(where) ?? fresh.querySelector(".message-area")).replaceChildren(message);
      section.replaceWith(fresh);
    };

    // What came back from the provider: a payment only counts once the provider confirms it.
    const latest = [...billing.topUps].sort((a, b) =>
      String(b.createdAt).localeCompare(String(a.createdAt)),
    )[0];
    const returned = returnMessages[query.get("checkout")];
    if (latest && failedStatuses.has(String(latest.status)) && latest.method !== "automatic") {
      messages.show(
        "error",
        h("strong", {}, "Your last payment was declined. "),
        "No money was taken and your balance has not changed. Try again with another card.",
      );
    } else if (
      latest &&
      String(latest.status) === "pending" &&
      Date.now() - Date.parse(latest.createdAt) < pendingWindowMs
    ) {
      messages.show(
        "status",
        "A top-up is waiting for payment or for the provider's confirmation. Your balance updates as soon as it is confirmed.",
      );
      // Confirmation arrives by webhook shortly after payment: look again a few times, then stop.
      if (pendingChecks < maxPendingChecks) {
        pendingChecks += 1;
        setTimeout(() => {
          if (section.isConnected) rerender();
        }, 2000);
      }
    } else if (returned) {
      messages.show(...returned);
    } else if (query.has("checkout") || query.has("paid")) {
      messages.show("success", "Payment confirmed. Thank you!");
    }

    // Summary
    section.append(
      h(
        "div",
        { class: "grid" },
        h(
          "div",
          { class: "card" },
          h("h2", { class: "small muted" }, "Balance"),
          h("p", { class: "stat", id: "balance" }, pounds(billing.balancePence)),
        ),
        h(
          "div",
          { class: "card" },
          h("h2", { class: "small muted" }, "Curriculum data"),
          h("p", { class: "stat", id: "data-status" }, billing.dataUnlocked ? "Unlocked" : "Locked"),
          h(
            "p",
            { class: "small" },
            billing.dataUnlocked
              ? "The data endpoints are free for this account."
              : "Your first top-up unlocks the data endpoints for good.",
          ),
        ),
        h(
          "div",
          { class: "card" },
          h("h2", { class: "small muted" }, "Lifetime spend"),
          h("p", { class: "stat" }, pounds(billing.lifetimeSpendPence)),
        ),
      ),
    );

    // One-off top-up
    const topUpMessages = messageArea();
    const topUpButtons = topUpAmountsPence.map((pence) => {
      const button = h("button", { type: "button" }, `Top up ${pounds(pence)}`);
      button.addEventListener("click", () =>
        goToProvider(topUpMessages, button, "POST", "/billing/checkout", { amountPence: pence }, "Checkout"),
      );
      return button;
    });
    section.append(
      h(
        "div",
        { class: "card" },
        h("h2", {}, "Top up"),
        h(
          "p",
          {},
          "You pay on the payment provider's page. The balance moves when the provider confirms the payment.",
        ),
        topUpMessages,
        h("div", { class: "actions" }, topUpButtons),
      ),
    );

    // Monthly top-up
    const monthlyMessages = messageArea();
    const monthly = h(
      "div",
      { class: "card", id: "monthly" },
      h("h2", {}, "Monthly top-up"),
      monthlyMessages,
    );
    const subscription = billing.subscription;
    const subscriptionStatus = String(subscription?.status ?? "");
    if (subscription && (subscriptionStatus === "active" || subscriptionStatus === "past_due")) {
      const cancel = h("button", { type: "button", class: "secondary" }, "Cancel monthly top-up");
      cancel.addEventListener("click", async () => {
        cancel.disabled = true;
        const result = await platform("DELETE", "/billing/subscription");
        if (result.ok)
          rerender(
            notice("success", "Monthly top-up cancelled. Months already paid stay on your balance."),
            "#monthly .message-area",
          );
        else {
          cancel.disabled = false;
          monthlyMessages.show("error", result.data.message ?? "Could not cancel.");
        }
      });
      appendPresent(
        monthly,
        h(
          "p",
          { id: "subscription-summary" },
          h(
            "span",
            { class: `badge ${subscriptionStatus === "active" ? "good" : "bad"}` },
            subscriptionStatusNames[subscriptionStatus],
          ),
          ` ${pounds(subscription.amountPence)} a month`,
          subscription.currentPeriodEnd ? `, next on ${dateTime(subscription.currentPeriodEnd)}` : "",
          ".",
        ),
        subscriptionStatus === "past_due"
          ? notice(
              "warning",
              "The last monthly payment did not go through, so that month was not added. Cancel and start again with another card.",
            )
          : null,
        h(
          "div",
          { class: "actions" },
          cancel,
          // The embedded test processor lets a month pass on demand; Stripe has no such page.
          subscription.providerUrl
            ? h(
                "a",
                { href: providerUrl(subscription.providerUrl), class: "small" },
                "Open in the test payment processor (renew now)",
              )
            : null,
        ),
      );
    } else {
      const amount = amountSelect("monthlyAmount", subscription?.amountPence ?? 2500);
      const start = h("button", { type: "submit" }, "Start monthly top-up");
      const form = h(
        "form",
        { class: "stack" },
        field("Amount each month", amount),
        h("div", { class: "actions" }, start),
      );
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        goToProvider(
          monthlyMessages,
          start,
          "POST",
          "/billing/subscription",
          { amountPence: Number(amount.value) },
          "Monthly top-up",
        );
      });
      appendPresent(
        monthly,
        h("p", {}, "Add the same amount on the same day each month. Cancel at any time."),
        subscriptionStatus === "pending"
          ? notice(
              "status",
              `A monthly top-up of ${pounds(subscription.amountPence)} is waiting for its first payment. Finish the checkout, or start again below.`,
            )
          : null,
        subscriptionStatus === "canceled"
          ? h(
              "p",
              { class: "small muted" },
              `Your monthly top-up of ${pounds(subscription.amountPence)} was cancelled.`,
            )
          : null,
        form,
      );
    }
    section.append(monthly);

    // Saved card and automatic top-up
    const autoMessages = messageArea();
    const card = billing.paymentMethod;
    const saveCard = h(
      "button",
      { type: "button", class: "secondary" },
      card ? "Replace saved card" : "Save a card",
    );
    saveCard.addEventListener("click", () =>
      goToProvider(autoMessages, saveCard, "POST", "/billing/payment-method", undefined, "Saving a card"),
    );
    const settings = billing.autoTopUp ?? {};
    const enabled = h("input", {
      type: "checkbox",
      id: "auto-enabled",
      name: "enabled",
      checked: Boolean(settings.enabled),
    });
    const threshold = h("input", {
      type: "number",
      name: "threshold",
      id: "auto-threshold",
      min: "0.50",
      max: "50.00",
      step: "0.01",
      inputmode: "decimal",
      value: ((settings.thresholdPence ?? 500) / 100).toFixed(2),
    });
    const autoAmount = amountSelect("autoAmount", settings.amountPence ?? 1000);
    const saveAuto = h("button", { type: "submit" }, "Save automatic top-up");
    const autoForm = h(
      "form",
      { class: "stack", novalidate: true },
      h(
        "label",
        { class: "check", for: enabled.id },
        enabled,
        h("span", {}, "Top up automatically when the balance runs low"),
      ),
      field("When the balance falls below (£)", threshold, "Between £0.50 and £50.00."),
      field("Top up by", autoAmount),
      h("div", { class: "actions" }, saveAuto),
    );
    autoForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      autoMessages.clear();
      const pounds = Number(threshold.value);
      const thresholdPence = Math.round(pounds * 100);
      if (!threshold.value || !Number.isFinite(pounds) || thresholdPence < 50 || thresholdPence > 5000) {
        setFieldError(threshold, "Enter an amount between £0.50 and £50.00.");
        threshold.focus();
        return;
      }
      setFieldError(threshold, null);
      saveAuto.disabled = true;
      const result = await platform("PUT", "/billing/auto-topup", {
        enabled: enabled.checked,
        thresholdPence,
        amountPence: Number(autoAmount.value),
      });
      saveAuto.disabled = false;
      if (result.ok) rerender(notice("success", "Automatic top-up saved."), "#auto-top-up .message-area");
      else if (result.status === 404 && result.data.error === "not_found")
        autoMessages.show("error", "Automatic top-up is not available on this server yet.");
      else autoMessages.show("error", result.data.message ?? "Could not save automatic top-up.");
    });
    section.append(
      h(
        "div",
        { class: "card", id: "auto-top-up" },
        h("h2", {}, "Saved card and automatic top-up"),
        autoMessages,
        settings.disabledReason && !settings.enabled ? switchedOffNotice(settings) : null,
        h(
          "p",
          { id: "saved-card" },
          card
            ? `Saved card: ${card.brand ?? "card"} ending ${card.last4 ?? "····"}${card.expMonth ? `, expires ${card.expMonth}/${card.expYear}` : ""}.`
            : "No saved card. Automatic top-up needs one.",
        ),
        h(
          "p",
          { id: "auto-status", class: "small" },
          settings.enabled && settings.thresholdPence && settings.amountPence
            ? `Automatic top-up is on: when a call leaves the balance below ${pounds(settings.thresholdPence)}, ${pounds(settings.amountPence)} is added from the saved card, once each time.`
            : "Automatic top-up is off.",
        ),
        h("div", { class: "actions" }, saveCard),
        autoForm,
      ),
    );

    // History with refunds
    const historyMessages = messageArea();
    const history = billing.topUps.map((topUp) => {
      const refundCell = h("td", { "data-label": "Refund" });
      if (topUp.refundablePence > 0) {
        const refund = h(
          "button",
          { type: "button", class: "secondary" },
          `Refund ${pounds(topUp.refundablePence)}`,
        );
        refund.addEventListener("click", async () => {
          refund.disabled = true;
          const result = await platform("POST", `/billing/topups/${encodeURIComponent(topUp.id)}/refund`);
          if (result.ok)
            rerender(notice("success", `Refunded ${pounds(result.data.refundedPence)} to your card.`));
          else {
            refund.disabled = false;
            historyMessages.show("error", result.data.message ?? "The refund failed.");
          }
        });
        refundCell.append(refund);
      } else {
        refundCell.append(topUp.refundedPence > 0 ? `Refunded ${pounds(topUp.refundedPence)}` : "—");
      }
      return h(
        "tr",
        {},
        h("td", { "data-label": "Date" }, dateTime(topUp.createdAt)),
        h("td", { "data-label": "Amount" }, pounds(topUp.amountPence)),
        h("td", { "data-label": "Type" }, methodNames[topUp.method] ?? topUp.method ?? "—"),
        h("td", { "data-label": "Status" }, statusBadge(topUp)),
        h("td", { "data-label": "Refundable" }, pounds(topUp.refundablePence ?? 0)),
        refundCell,
      );
    });
    section.append(
      h(
        "div",
        { class: "card" },
        h("h2", {}, "Top-up history"),
        h("p", { class: "small muted" }, "The unspent part of a top-up can be refunded for 14 days."),
        historyMessages,
        history.length
          ? h(
              "div",
              { class: "table-wrap" },
              h(
                "table",
                { class: "responsive-table", id: "topups-table" },
                h(
                  "thead",
                  {},
                  h(
                    "tr",
                    {},
                    ["Date", "Amount", "Type", "Status", "Refundable", "Refund"].map((label) =>
                      h("th", { scope: "col" }, label),
                    ),
                  ),
                ),
                h("tbody", {}, history),
              ),
            )
          : h("p", { class: "muted" }, "No top-ups yet."),
      ),
      closeAccountCard(messages, navigate, refreshSession),
    );
    return section;
  },
};

function closeAccountCard(messages, navigate, refreshSession) {
  const understood = h("input", { type: "checkbox", id: "close-understood" });
  const close = h("button", { type: "submit", class: "danger" }, "Close my account");
  const closeMessages = messageArea();
  const form = h(
    "form",
    { class: "stack", novalidate: true },
    h(
      "label",
      { class: "check", for: understood.id },
      understood,
      h(
        "span",
        {},
        "I understand that every key is revoked at once and the unspent balance is refunded. This cannot be undone.",
      ),
    ),
    h("div", { class: "actions" }, close),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!understood.checked) {
      closeMessages.show("error", "Tick the box to confirm you want to close the account.");
      understood.focus();
      return;
    }
    close.disabled = true;
    const result = await platform("POST", "/account/close");
    close.disabled = false;
    if (!result.ok) {
      closeMessages.show(
        "error",
        result.status === 404 && result.data.error === "not_found"
          ? "Closing an account is not available on this server yet."
          : (result.data.message ?? "The account could not be closed."),
      );
      return;
    }
    messages.show("success", "Your account is closed.");
    await refreshSession();
    navigate("/signin");
  });
  return h("div", { class: "card" }, h("h2", {}, "Close account"), closeMessages, form);
}
