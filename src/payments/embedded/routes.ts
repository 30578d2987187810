import type { FastifyInstance, FastifyReply } from "fastify";
import { formatPounds } from "../../mail/mailer.ts";
import type {
  CheckoutView,
  EmbeddedPaymentProvider,
  SettleOutcome,
  SubscriptionView,
} from "./embedded-provider.ts";
import { testCards } from "./embedded-provider.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;margin:.5rem 0;font-size:1rem}input,button{padding:.6rem}
table{width:100%}td:last-child{text-align:right}.note{color:#555;font-size:.9rem}</style></head>
<body>${body}</body></html>`;
}

function checkoutPage(checkout: CheckoutView): string {
  const total = checkout.amountPence + checkout.vatPence;
  const what =
    checkout.mode === "setup"
      ? "Save a card"
      : checkout.mode === "subscription"
        ? "Monthly top-up"
        : "Top-up";
  return page(
    `Syllabi payment — ${what}`,
    `<h1>${escapeHtml(what)}</h1>
<table><tr><td>Amount</td><td>${formatPounds(checkout.amountPence)}</td></tr>
<tr><td>VAT</td><td>${formatPounds(checkout.vatPence)}</td></tr>
<tr><th>Total</th><th>${formatPounds(total)}</th></tr></table>
${
  checkout.status === "open"
    ? `<form method="post" action="/_pay/checkout/${escapeHtml(checkout.id)}">
<label for="card">Card number</label><input id="card" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required>
<button type="submit">Pay ${formatPounds(total)}</button></form>`
    : `<p>This checkout is ${escapeHtml(checkout.status)}.</p>`
}
${checkout.failureReason ? `<p role="alert">The last attempt failed: ${escapeHtml(checkout.failureReason.replace("_", " "))}.</p>` : ""}
<p class="note">Embedded test processor. ${testCards.success} succeeds, ${testCards.declined} is declined,
${testCards.insufficientFunds} fails for insufficient funds, ${testCards.declinesWhenCharged} can be saved but is
declined whenever it is charged.</p>`,
  );
}

function subscriptionPage(subscription: SubscriptionView, notice = ""): string {
  const active = subscription.status === "active";
  return page(
    "Syllabi payment — Monthly top-up",
    `<h1>Monthly top-up</h1>
<table><tr><td>Amount each month</td><td>${formatPounds(subscription.amountPence)}</td></tr>
<tr><td>VAT</td><td>${formatPounds(subscription.vatPence)}</td></tr>
<tr><td>Status</td><td>${escapeHtml(subscription.status.replace("_", " "))}</td></tr>
<tr><td>Current period</td><td>${subscription.currentPeriodStart.toISOString().slice(0, 10)} to
${subscription.currentPeriodEnd.toISOString().slice(0, 10)}</td></tr></table>
${notice ? `<p role="status">${notice}</p>` : ""}
${
  active
    ? `<form method="post" action="/_pay/subscriptions/${escapeHtml(subscription.id)}/renew">
<button type="submit">Renew now (end this period and charge the next month)</button></form>`
    : ""
}
<p class="note">Embedded test processor: renewing here stands in for a month passing.</p>
<p><a href="/#/billing">Back to the portal</a></p>`,
  );
}

function sendOutcome(reply: FastifyReply, outcome: SettleOutcome, wantsHtml: boolean, checkoutId: string) {
  const status =
    outcome.kind === "paid"
      ? 200
      : outcome.kind === "not_found"
        ? 404
        : outcome.kind === "failed"
          ? 402
          : 409;
  const body =
    outcome.kind === "paid"
      ? { status: "paid", paymentId: outcome.paymentId }
      : outcome.kind === "failed"
        ? { status: "failed", reason: outcome.reason }
        : outcome.kind === "not_found"
          ? { error: "not_found", message: "There is no such checkout." }
          : { status: outcome.status, message: "This checkout is already settled." };
  if (!wantsHtml) return reply.code(status).send(body);
  const text =
    outcome.kind === "paid"
      ? "Payment received. Your balance updates as soon as Syllabi confirms it; you can close this page."
      : outcome.kind === "failed"
        ? `The payment failed (${outcome.reason.replace("_", " ")}). <a href="/_pay/checkout/${escapeHtml(checkoutId)}">Try again</a>.`
        : "This checkout cannot be paid.";
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(page("Syllabi payment", `<p>${text}</p><p><a href="/">Back to the portal</a></p>`));
}

/** The embedded provider's pages: everything local, no scripts, no CDN. */
export async function registerEmbeddedPayRoutes(
  app: FastifyInstance,
  dependencies: { provider: EmbeddedPaymentProvider },
): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string" },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    scope.get<{ Params: { checkoutId: string } }>("/_pay/checkout/:checkoutId", async (request, reply) => {
      const checkout = await dependencies.provider.checkout(request.params.checkoutId);
      reply.header("cache-control", "no-store").type("text/html; charset=utf-8");
      if (!checkout) return reply.code(404).send(page("Not found", "<p>There is no such checkout.</p>"));
      return reply.send(checkoutPage(checkout));
    });

    scope.get<{ Params: { subscriptionId: string } }>(
      "/_pay/subscriptions/:subscriptionId",
      async (request, reply) => {
        const subscription = await dependencies.provider.subscription(request.params.subscriptionId);
        reply.header("cache-control", "no-store").type("text/html; charset=utf-8");
        if (!subscription)
          return reply.code(404).send(page("Not found", "<p>There is no such subscription.</p>"));
        return reply.send(subscriptionPage(subscription));
      },
    );

    // Development: a month passes for this subscription. The renewal is paid and signalled like any other.
    scope.post<{ Params: { subscriptionId: string } }>(
      "/_pay/subscriptions/:subscriptionId/renew",
      async (request, reply) => {
        const { subscriptionId } = request.params;
        const outcome = await dependencies.provider.advance(subscriptionId);
        const wantsHtml = !String(request.headers["content-type"] ?? "").includes("json");
        const status = outcome.kind === "renewed" ? 200 : outcome.kind === "not_found" ? 404 : 409;
        const body =
          outcome.kind === "renewed"
            ? { status: "renewed", paymentId: outcome.paymentId, periodEnd: outcome.periodEnd.toISOString() }
            : outcome.kind === "failed"
              ? { status: "failed", reason: outcome.reason }
              : { status: outcome.kind };
        if (!wantsHtml) return reply.code(status).send(body);
        const subscription = await dependencies.provider.subscription(subscriptionId);
        reply.code(status).type("text/html; charset=utf-8");
        if (!subscription) return reply.send(page("Not found", "<p>There is no such subscription.</p>"));
        const notice =
          outcome.kind === "renewed"
            ? "Renewed: the next month was charged and credited."
            : outcome.kind === "failed"
              ? `The renewal failed (${escapeHtml(outcome.reason.replace("_", " "))}); the subscription is past due.`
              : "This subscription cannot be renewed.";
        return reply.send(subscriptionPage(subscription, notice));
      },
    );

    scope.post<{ Params: { checkoutId: string } }>("/_pay/checkout/:checkoutId", async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const cardNumber = typeof body.cardNumber === "string" ? body.cardNumber : "";
      const wantsHtml = !String(request.headers["content-type"] ?? "").includes("json");
      const outcome = await dependencies.provider.settle(request.params.checkoutId, cardNumber);
      return sendOutcome(reply, outcome, wantsHtml, request.params.checkoutId);
    });
  });
}
