import { createHash, createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A local stand-in for the Stripe API, for exactly the calls Syllabi makes: customers, Checkout Sessions
 * (payment, setup, subscription), SetupIntents (retrieve, with expand), off-session PaymentIntents, refunds,
 * invoice payments and cancelling subscriptions. It speaks Stripe's wire format: form-encoded bodies with
 * bracketed keys, `Bearer` secret keys, `Idempotency-Key` replays, Stripe's object and error shapes (402
 * `card_error` with `decline_code`, 400 `invalid_request_error` naming the `param`, 404 `resource_missing`),
 * and it rejects parameters it does not know, as Stripe does.
 *
 * What a customer does on Stripe's hosted pages, and the passing of a month, are test controls
 * (`completeCheckout`, `settleAsyncPayment`, `renewSubscription`). Every change sends the events Stripe would,
 * as webhooks signed the way Stripe signs them (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`);
 * they can be held, released in any order and re-delivered.
 */

export const standInApiVersion = "2026-10-28.endive";

type Json = Record<string, unknown>;

export interface RecordedStripeRequest {
  method: string;
  path: string;
  params: Json;
  idempotencyKey: string | null;
}

export interface StripeEvent {
  id: string;
  object: "event";
  type: string;
  created: number;
  data: { object: Json };
  [key: string]: unknown;
}

export interface Delivery {
  eventId: string;
  type: string;
  status: number;
  body: string;
}

/** Stripe's test cards, with what each does when saved and when charged. */
interface CardBehaviour {
  brand: string;
  /** The refusal a charge meets; null when charges succeed. */
  chargeError: { code: string; decline_code: string; message: string } | null;
  /** Refused when being saved (SetupIntent) as well. */
  failsSetup: boolean;
  /** Needs the customer for 3-D Secure: passes on the hosted page, refused off-session. */
  needsAuthentication?: boolean;
}

const declined = {
  code: "card_declined",
  decline_code: "generic_decline",
  message: "Your card was declined.",
};
export const stripeTestCards: Record<string, CardBehaviour> = {
  "4242424242424242": { brand: "visa", chargeError: null, failsSetup: false },
  "4000000000000002": { brand: "visa", chargeError: declined, failsSetup: true },
  "4000000000009995": {
    brand: "visa",
    chargeError: {
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    },
    failsSetup: false,
  },
  "4000000000000341": { brand: "visa", chargeError: declined, failsSetup: false },
  "4000000000000069": {
    brand: "visa",
    chargeError: { code: "expired_card", decline_code: "expired_card", message: "Your card has expired." },
    failsSetup: true,
  },
  "4000000000000119": {
    brand: "visa",
    chargeError: {
      code: "processing_error",
      decline_code: "processing_error",
      message: "An error occurred while processing your card. Try again in a little bit.",
    },
    failsSetup: false,
  },
  "4000002760003184": {
    brand: "visa",
    chargeError: {
      code: "authentication_required",
      decline_code: "authentication_required",
      message: "Your card was declined. This transaction requires authentication.",
    },
    failsSetup: false,
    needsAuthentication: true,
  },
};

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message ?? "stripe error"));
  }
}

function invalidRequest(message: string, param?: string, code?: string, status = 400): StripeHttpError {
  return new StripeHttpError(status, {
    type: "invalid_request_error",
    message,
    ...(param ? { param } : {}),
    ...(code ? { code, doc_url: `https://docs.stripe.com/error-codes/${code.replace(/_/g, "-")}` } : {}),
  });
}

function missing(resource: string, id: string, param?: string): StripeHttpError {
  return invalidRequest(`No such ${resource}: '${id}'`, param, "resource_missing", param ? 400 : 404);
}

/** `a[b][0][c]=v` → `{ a: { b: [ { c: "v" } ] } }`, as Stripe reads bodies and query strings. */
export function parseStripeParams(encoded: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const match = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(key);
    if (!match) continue;
    const path = [match[1] ?? "", ...[...(match[2] ?? "").matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? "")];
    let node: Json = root;
    path.forEach((segment, index) => {
      const name = segment === "" ? String(Object.keys(node).length) : segment;
      if (index === path.length - 1) node[name] = value;
      else node = (node[name] ??= {}) as Json;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (!value || typeof value !== "object") return value;
    const entries = Object.entries(value as Json).map(([key, inner]) => [key, arrays(inner)] as const);
    const numeric = entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key));
    return numeric
      ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, inner]) => inner)
      : Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

function refuseUnknown(params: Json, allowed: string[]): void {
  const unknown = Object.keys(params).find((key) => !allowed.includes(key));
  if (unknown) throw invalidRequest(`Received unknown parameter: ${unknown}`, unknown);
}

function integer(value: unknown, param: string): number {
  const number = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(number))
    throw invalidRequest(`Invalid integer: ${String(value)}`, param);
  return number;
}

function stringMap(value: unknown): Record<string, string> {
  return value && typeof value === "object"
    ? ({ ...(value as Record<string, string>) } as Record<string, string>)
    : {};
}

function addMonth(seconds: number): number {
  const at = new Date(seconds * 1000);
  const next = new Date(
    Date.UTC(
      at.getUTCFullYear(),
      at.getUTCMonth() + 1,
      1,
      at.getUTCHours(),
      at.getUTCMinutes(),
      at.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return Math.floor(next.getTime() / 1000);
}

interface LineItem {
  name: string;
  unitAmount: number;
  quantity: number;
  recurring: boolean;
}

interface Session {
  object: Json;
  lineItems: LineItem[];
  paymentIntentMetadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
  setupIntentMetadata: Record<string, string>;
}

interface PaymentMethod {
  object: Json;
  card: CardBehaviour;
}

export interface StripeStandIn {
  /** The API address, for STRIPE_API_BASE. */
  readonly url: string;
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly requests: RecordedStripeRequest[];
  /** Every event sent (or held), in the order Stripe created them. */
  readonly events: StripeEvent[];
  readonly deliveries: Delivery[];
  setWebhookTarget(url: string): void;
  /** The customer on the hosted page: pays (or saves the card) with a test card number. */
  completeCheckout(
    sessionId: string,
    options: { card: string; asyncPayment?: boolean },
  ): Promise<{ ok: true } | { ok: false; code: string; declineCode: string }>;
  /** A bank payment from `completeCheckout(…, { asyncPayment: true })` clears or fails. */
  settleAsyncPayment(sessionId: string, succeeded: boolean): Promise<void>;
  expireCheckout(sessionId: string): Promise<void>;
  /** A month passes for one subscription: the next period is invoiced and the default card charged. */
  renewSubscription(subscriptionId: string): Promise<{ paid: boolean; invoiceId: string }>;
  detachPaymentMethod(paymentMethodId: string): void;
  /** The next `count` API requests fail with Stripe's 500 `api_error`. */
  failNextRequests(count: number): void;
  /** Keeps events instead of sending them, until released. */
  holdWebhooks(): void;
  /** Sends the held events, in the order given (default: as created), and sends later ones at once again. */
  releaseWebhooks(order?: (held: StripeEvent[]) => StripeEvent[]): Promise<void>;
  /** Sends an event again, freshly signed, as Stripe's retries and "resend" do. */
  redeliver(eventId: string): Promise<Delivery>;
  /** Sends a body with a given signature header (for signature tests). */
  deliverRaw(body: string, signature: string): Promise<Delivery>;
  sign(body: string, timestampSeconds?: number): string;
  /** Resolves once every webhook sent so far has been answered. */
  flush(): Promise<void>;
  subscription(id: string): Json | undefined;
  paymentIntent(id: string): Json | undefined;
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_standin${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(24).toString("base64url")}`;
  const requests: RecordedStripeRequest[] = [];
  const events: StripeEvent[] = [];
  const deliveries: Delivery[] = [];
  const sockets = new Set<Socket>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: Json }>();
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Session>();
  const paymentMethods = new Map<string, PaymentMethod>();
  const setupIntents = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const subscriptions = new Map<string, { object: Json; lineItems: LineItem[] }>();
  const invoices = new Map<string, Json>();
  const invoicePayments = new Map<string, Json>();
  const refundedByIntent = new Map<string, number>();
  let webhookTarget = "";
  let failures = 0;
  let held: StripeEvent[] | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let baseUrl = "";

  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
  const now = () => Math.floor(Date.now() / 1000);

  function sign(body: string, timestampSeconds = now()): string {
    const mac = createHmac("sha256", webhookSecret).update(`${timestampSeconds}.${body}`).digest("hex");
    return `t=${timestampSeconds},v1=${mac}`;
  }

  async function post(
    body: string,
    signature: string,
    event: { id: string; type: string },
  ): Promise<Delivery> {
    const response = await fetch(webhookTarget, {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        "stripe-signature": signature,
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      },
      body,
    });
    const delivery = {
      eventId: event.id,
      type: event.type,
      status: response.status,
      body: await response.text(),
    };
    deliveries.push(delivery);
    return delivery;
  }

  function send(event: StripeEvent): Promise<Delivery> {
    const body = JSON.stringify(event, null, 2);
    const delivery = chain.then(() => post(body, sign(body), event));
    chain = delivery.catch(() => undefined);
    return delivery;
  }

  function emit(type: string, object: Json, previous?: Json): void {
    const event: StripeEvent = {
      id: id("evt"),
      object: "event",
      api_version: standInApiVersion,
      created: now(),
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(event);
    if (held) held.push(event);
    else void send(event).catch(() => undefined);
  }

  // ---- objects ------------------------------------------------------------------------------------------

  function newPaymentMethod(cardNumber: string, customer: string | null): PaymentMethod {
    const card = stripeTestCards[cardNumber] ?? { brand: "visa", chargeError: declined, failsSetup: true };
    const method: PaymentMethod = {
      card,
      object: {
        id: id("pm"),
        object: "payment_method",
        type: "card",
        customer,
        card: {
          brand: card.brand,
          last4: cardNumber.slice(-4),
          exp_month: 12,
          exp_year: 2034,
          funding: "credit",
        },
        billing_details: { email: null, name: null },
        created: now(),
        livemode: false,
        metadata: {},
      },
    };
    paymentMethods.set(String(method.object.id), method);
    return method;
  }

  /** One charge: a PaymentIntent that succeeds or meets the card's refusal. */
  function charge(input: {
    amount: number;
    customer: string | null;
    method: PaymentMethod;
    metadata: Record<string, string>;
    offSession: boolean;
    description?: string | null;
  }): { intent: Json; error: Json | null } {
    const refusal =
      input.method.card.needsAuthentication && !input.offSession ? null : input.method.card.chargeError;
    const chargeId = id("ch");
    const intent: Json = {
      id: id("pi"),
      object: "payment_intent",
      amount: input.amount,
      amount_received: refusal ? 0 : input.amount,
      currency: "gbp",
      customer: input.customer,
      description: input.description ?? null,
      payment_method: input.method.object.id,
      metadata: input.metadata,
      status: refusal ? "requires_payment_method" : "succeeded",
      latest_charge: chargeId,
      last_payment_error: refusal
        ? { type: "card_error", ...refusal, charge: chargeId, payment_method: input.method.object }
        : null,
      created: now(),
      livemode: false,
    };
    paymentIntents.set(String(intent.id), intent);
    if (refusal) {
      emit("payment_intent.payment_failed", intent);
      return {
        intent,
        error: {
          type: "card_error",
          ...refusal,
          charge: chargeId,
          payment_intent: intent,
          payment_method: input.method.object,
          doc_url: `https://docs.stripe.com/error-codes/${refusal.code.replace(/_/g, "-")}`,
          request_log_url: `https://dashboard.stripe.com/test/logs/${id("req")}`,
        },
      };
    }
    emit("payment_intent.succeeded", intent);
    emit("charge.succeeded", {
      id: chargeId,
      object: "charge",
      amount: input.amount,
      payment_intent: intent.id,
      paid: true,
    });
    return { intent, error: null };
  }

  /** A subscription period's invoice: charged on the default card, paid or left open. */
  function invoiceFor(
    subscription: { object: Json; lineItems: LineItem[] },
    method: PaymentMethod,
    periodStart: number,
    periodEnd: number,
    reason: string,
  ): { invoice: Json; paid: boolean } {
    const sub = subscription.object;
    const amount = subscription.lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const { intent, error } = charge({
      amount,
      customer: String(sub.customer),
      method,
      metadata: {},
      offSession: reason !== "subscription_create",
    });
    const paid = error === null;
    const details = { subscription: sub.id, metadata: sub.metadata };
    const invoice: Json = {
      id: id("in"),
      object: "invoice",
      customer: sub.customer,
      billing_reason: reason,
      status: paid ? "paid" : "open",
      currency: "gbp",
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      parent: { type: "subscription_details", quote_details: null, subscription_details: details },
      lines: {
        object: "list",
        has_more: false,
        url: "/v1/invoices/lines",
        data: subscription.lineItems.map((item) => ({
          id: id("il"),
          object: "line_item",
          amount: item.unitAmount * item.quantity,
          currency: "gbp",
          description: item.name,
          period: { start: periodStart, end: periodEnd },
          quantity: item.quantity,
        })),
      },
      period_start: periodStart,
      period_end: periodStart,
      created: now(),
      livemode: false,
    };
    invoices.set(String(invoice.id), invoice);
    if (paid) {
      const payment: Json = {
        id: id("inpay"),
        object: "invoice_payment",
        amount_paid: amount,
        amount_requested: amount,
        currency: "gbp",
        invoice: invoice.id,
        is_default: true,
        livemode: false,
        payment: { type: "payment_intent", payment_intent: intent.id },
        status: "paid",
        status_transitions: { paid_at: now(), canceled_at: null },
        created: now(),
      };
      invoicePayments.set(String(payment.id), payment);
      emit("invoice.paid", invoice);
      emit("invoice.payment_succeeded", invoice);
    } else {
      emit("invoice.payment_failed", invoice);
    }
    return { invoice, paid };
  }

  // ---- API ----------------------------------------------------------------------------------------------

  function customer(customerId: unknown, param = "customer"): string {
    if (typeof customerId !== "string" || !customers.has(customerId))
      throw missing("customer", String(customerId), param);
    return customerId;
  }

  function lineItemsFrom(value: unknown, mode: string): LineItem[] {
    if (!Array.isArray(value) || value.length === 0)
      throw invalidRequest(`line_items is required in ${mode} mode.`, "line_items", "parameter_missing");
    return value.map((raw, index) => {
      const item = raw as Json;
      const price = item.price_data as Json | undefined;
      if (!price)
        throw invalidRequest("Missing required param: price_data.", `line_items[${index}][price_data]`);
      refuseUnknown(price, ["currency", "unit_amount", "product_data", "recurring"]);
      if (price.currency !== "gbp" && price.currency !== "usd")
        throw invalidRequest("Invalid currency.", `line_items[${index}][price_data][currency]`);
      const name = (price.product_data as Json | undefined)?.name;
      if (typeof name !== "string" || !name)
        throw invalidRequest(
          "Missing required param: name.",
          `line_items[${index}][price_data][product_data][name]`,
          "parameter_missing",
        );
      const recurring = Boolean(price.recurring);
      if (
        recurring &&
        (price.recurring as Json).interval !== "month" &&
        (price.recurring as Json).interval !== "year"
      )
        throw invalidRequest("Invalid interval.", `line_items[${index}][price_data][recurring][interval]`);
      if (mode === "payment" && recurring)
        throw invalidRequest(
          "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
          `line_items[${index}][price_data][recurring]`,
        );
      if (mode === "subscription" && !recurring)
        throw invalidRequest(
          "You must provide at least one recurring price in `subscription` mode when using prices.",
          `line_items[${index}][price_data][recurring]`,
        );
      return {
        name,
        unitAmount: integer(price.unit_amount, `line_items[${index}][price_data][unit_amount]`),
        quantity: integer(item.quantity ?? "1", `line_items[${index}][quantity]`),
        recurring,
      };
    });
  }

  function createSession(params: Json): Json {
    refuseUnknown(params, [
      "mode",
      "customer",
      "client_reference_id",
      "line_items",
      "metadata",
      "payment_intent_data",
      "subscription_data",
      "setup_intent_data",
      "success_url",
      "cancel_url",
      "currency",
      "allowed_payment_method_types",
      "expand",
    ]);
    const mode = String(params.mode ?? "");
    if (!["payment", "setup", "subscription"].includes(mode))
      throw invalidRequest("Invalid mode: must be one of payment, setup, or subscription", "mode");
    if (params.customer !== undefined) customer(params.customer);
    if (typeof params.success_url !== "string")
      throw invalidRequest("Missing required param: success_url.", "success_url", "parameter_missing");
    if (mode === "payment" && params.subscription_data)
      throw invalidRequest("subscription_data can only be used in subscription mode.", "subscription_data");
    if (mode !== "payment" && params.payment_intent_data)
      throw invalidRequest("payment_intent_data can only be used in payment mode.", "payment_intent_data");
    if (mode !== "setup" && params.setup_intent_data)
      throw invalidRequest("setup_intent_data can only be used in setup mode.", "setup_intent_data");
    if (mode === "setup" && params.line_items)
      throw invalidRequest("line_items cannot be used in setup mode.", "line_items");
    if (mode === "setup" && !params.currency && !params.allowed_payment_method_types)
      throw invalidRequest("currency is required in setup mode.", "currency", "parameter_missing");
    const lineItems = mode === "setup" ? [] : lineItemsFrom(params.line_items, mode);
    const total = lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const sessionId = `cs_test_${randomBytes(24).toString("base64url").replace(/[-_]/g, "x")}`;
    const object: Json = {
      id: sessionId,
      object: "checkout.session",
      mode,
      status: "open",
      payment_status: mode === "setup" ? "no_payment_required" : "unpaid",
      amount_subtotal: mode === "setup" ? null : total,
      amount_total: mode === "setup" ? null : total,
      currency: mode === "setup" ? (params.currency ?? null) : "gbp",
      customer: params.customer ?? null,
      client_reference_id: params.client_reference_id ?? null,
      metadata: stringMap(params.metadata),
      payment_intent: null,
      setup_intent: null,
      subscription: null,
      invoice: null,
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      url: `${baseUrl}/c/pay/${sessionId}`,
      created: now(),
      expires_at: now() + 24 * 60 * 60,
      livemode: false,
    };
    sessions.set(sessionId, {
      object,
      lineItems,
      paymentIntentMetadata: stringMap((params.payment_intent_data as Json | undefined)?.metadata),
      subscriptionMetadata: stringMap((params.subscription_data as Json | undefined)?.metadata),
      setupIntentMetadata: stringMap((params.setup_intent_data as Json | undefined)?.metadata),
    });
    return object;
  }

  function createPaymentIntent(params: Json): { status: number; body: Json } {
    refuseUnknown(params, [
      "amount",
      "currency",
      "customer",
      "payment_method",
      "off_session",
      "confirm",
      "metadata",
      "description",
      "expand",
    ]);
    const amount = integer(params.amount, "amount");
    if (amount < 30) throw invalidRequest("Amount must be at least £0.30 gbp", "amount", "amount_too_small");
    if (params.currency !== "gbp") throw invalidRequest("Invalid currency.", "currency");
    const owner = customer(params.customer);
    if (params.confirm !== "true" || params.off_session !== "true")
      throw invalidRequest("The stand-in only confirms off-session PaymentIntents at once.", "confirm");
    const methodId = String(params.payment_method ?? "");
    const method = paymentMethods.get(methodId);
    if (!method) throw missing("PaymentMethod", methodId, "payment_method");
    if (method.object.customer !== owner)
      throw invalidRequest(
        "The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again.",
        "payment_method",
      );
    const { intent, error } = charge({
      amount,
      customer: owner,
      method,
      metadata: stringMap(params.metadata),
      offSession: true,
      description: typeof params.description === "string" ? params.description : null,
    });
    return error ? { status: 402, body: { error } } : { status: 200, body: intent };
  }

  function createRefund(params: Json): Json {
    refuseUnknown(params, ["payment_intent", "amount", "reason", "metadata"]);
    const intentId = String(params.payment_intent ?? "");
    const intent = paymentIntents.get(intentId);
    if (!intent) throw missing("payment_intent", intentId, "payment_intent");
    if (intent.status !== "succeeded")
      throw invalidRequest(
        "This PaymentIntent does not have a successful charge to refund.",
        "payment_intent",
      );
    const received = Number(intent.amount_received);
    const already = refundedByIntent.get(intentId) ?? 0;
    const amount = params.amount === undefined ? received - already : integer(params.amount, "amount");
    if (already >= received)
      throw invalidRequest(
        `Charge ${String(intent.latest_charge)} has already been refunded.`,
        undefined,
        "charge_already_refunded",
      );
    if (amount + already > received)
      throw invalidRequest(
        `Refund amount (£${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (£${((received - already) / 100).toFixed(2)})`,
        "amount",
        "amount_too_large",
      );
    refundedByIntent.set(intentId, already + amount);
    const refund: Json = {
      id: id("re"),
      object: "refund",
      amount,
      currency: "gbp",
      charge: intent.latest_charge,
      payment_intent: intentId,
      reason: params.reason ?? null,
      status: "succeeded",
      metadata: stringMap(params.metadata),
      created: now(),
    };
    emit("refund.created", refund);
    return refund;
  }

  function cancelSubscription(subscriptionId: string): Json {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw missing("subscription", subscriptionId);
    const sub = subscription.object;
    if (sub.status !== "canceled") {
      Object.assign(sub, { status: "canceled", canceled_at: now(), ended_at: now() });
      emit("customer.subscription.deleted", sub);
    }
    return sub;
  }

  function route(method: string, path: string, params: Json): { status: number; body: Json } {
    const ok = (body: Json) => ({ status: 200, body });
    if (method === "POST" && path === "/v1/customers") {
      refuseUnknown(params, ["metadata", "email", "name", "description"]);
      const created: Json = {
        id: id("cus"),
        object: "customer",
        email: params.email ?? null,
        metadata: stringMap(params.metadata),
        created: now(),
        livemode: false,
      };
      customers.set(String(created.id), created);
      return ok(created);
    }
    if (method === "POST" && path === "/v1/checkout/sessions") return ok(createSession(params));
    let match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && match) {
      const session = sessions.get(match[1] ?? "");
      if (!session) throw missing("checkout.session", match[1] ?? "");
      return ok(session.object);
    }
    match = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && match) {
      refuseUnknown(params, ["expand"]);
      const intent = setupIntents.get(match[1] ?? "");
      if (!intent) throw missing("setupintent", match[1] ?? "");
      const expand = Array.isArray(params.expand) ? params.expand : [];
      const body = structuredClone(intent);
      if (expand.includes("payment_method"))
        body.payment_method = paymentMethods.get(String(intent.payment_method))?.object ?? null;
      return ok(body);
    }
    if (method === "POST" && path === "/v1/payment_intents") return createPaymentIntent(params);
    if (method === "POST" && path === "/v1/refunds") return ok(createRefund(params));
    if (method === "GET" && path === "/v1/invoice_payments") {
      refuseUnknown(params, ["invoice", "limit", "status", "starting_after", "ending_before"]);
      const data = [...invoicePayments.values()].filter((payment) => payment.invoice === params.invoice);
      return ok({ object: "list", data, has_more: false, url: "/v1/invoice_payments" });
    }
    match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === "DELETE" && match) {
      refuseUnknown(params, ["invoice_now", "prorate", "cancellation_details"]);
      return ok(cancelSubscription(match[1] ?? ""));
    }
    throw invalidRequest(
      `Unrecognized request URL (${method}: ${path}). Please see https://docs.stripe.com/api`,
      undefined,
      undefined,
      404,
    );
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://stand-in");
    const method = request.method ?? "GET";
    const raw =
      method === "GET" || method === "DELETE" ? url.search.slice(1) : Buffer.concat(chunks).toString();
    const params = parseStripeParams(raw);
    const idempotencyKey = (request.headers["idempotency-key"] as string | undefined) ?? null;
    requests.push({ method, path: url.pathname, params, idempotencyKey });
    const reply = (status: number, body: Json, replayed = false) => {
      response.writeHead(status, {
        "content-type": "application/json",
        "request-id": id("req"),
        "stripe-version": standInApiVersion,
        ...(replayed ? { "idempotent-replayed": "true" } : {}),
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      });
      response.end(JSON.stringify(body));
    };

    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      reply(401, {
        error: { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_********" },
      });
      return;
    }
    if (failures > 0) {
      failures -= 1;
      reply(500, { error: { type: "api_error", message: "An unknown error occurred" } });
      return;
    }
    const fingerprint = createHash("sha256").update(`${method} ${url.pathname} ${raw}`).digest("hex");
    const stored = idempotencyKey && method === "POST" ? idempotent.get(idempotencyKey) : undefined;
    if (stored) {
      if (stored.fingerprint !== fingerprint)
        reply(400, {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      else reply(stored.status, stored.body, true);
      return;
    }
    let outcome: { status: number; body: Json };
    try {
      outcome = route(method, url.pathname, params);
    } catch (error) {
      if (!(error instanceof StripeHttpError)) throw error;
      outcome = { status: error.status, body: { error: error.body } };
    }
    // Stripe keeps the first answer to a key, errors included (except its own 500s).
    if (idempotencyKey && method === "POST") idempotent.set(idempotencyKey, { fingerprint, ...outcome });
    reply(outcome.status, outcome.body);
  }

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        response
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { type: "api_error", message: (error as Error).message } }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // ---- test controls: the customer on the hosted page, and time passing --------------------------------

  function openSession(sessionId: string): Session {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no such checkout session ${sessionId}`);
    if (session.object.status !== "open")
      throw new Error(`checkout session ${sessionId} is ${String(session.object.status)}`);
    return session;
  }

  const standIn: StripeStandIn = {
    url: baseUrl,
    secretKey,
    webhookSecret,
    requests,
    events,
    deliveries,
    setWebhookTarget: (url) => {
      webhookTarget = url;
    },

    async completeCheckout(sessionId, options) {
      const session = openSession(sessionId);
      const object = session.object;
      const owner = (object.customer as string | null) ?? null;
      const mode = String(object.mode);
      const behaviour = stripeTestCards[options.card];
      if (mode === "setup") {
        if (!behaviour || behaviour.failsSetup) {
          const error = behaviour?.chargeError ?? declined;
          return { ok: false, code: error.code, declineCode: error.decline_code };
        }
        const method = newPaymentMethod(options.card, owner);
        const setupIntent: Json = {
          id: id("seti"),
          object: "setup_intent",
          customer: owner,
          payment_method: method.object.id,
          status: "succeeded",
          usage: "off_session",
          metadata: session.setupIntentMetadata,
          created: now(),
          livemode: false,
        };
        setupIntents.set(String(setupIntent.id), setupIntent);
        Object.assign(object, { status: "complete", setup_intent: setupIntent.id });
        emit("setup_intent.succeeded", setupIntent);
        emit("payment_method.attached", method.object);
        emit("checkout.session.completed", object);
        return { ok: true };
      }
      const method = newPaymentMethod(options.card, mode === "subscription" ? owner : null);
      if (mode === "subscription") {
        if (method.card.chargeError && !method.card.needsAuthentication) {
          return {
            ok: false,
            code: method.card.chargeError.code,
            declineCode: method.card.chargeError.decline_code,
          };
        }
        const start = now();
        const end = addMonth(start);
        const subscriptionId = id("sub");
        const subscription = {
          lineItems: session.lineItems,
          object: {
            id: subscriptionId,
            object: "subscription",
            customer: owner,
            status: "active",
            metadata: session.subscriptionMetadata,
            default_payment_method: method.object.id,
            cancel_at_period_end: false,
            canceled_at: null,
            ended_at: null,
            created: start,
            latest_invoice: null as unknown,
            items: {
              object: "list",
              has_more: false,
              data: session.lineItems.map((item) => ({
                id: id("si"),
                object: "subscription_item",
                current_period_start: start,
                current_period_end: end,
                quantity: item.quantity,
                price: {
                  id: id("price"),
                  object: "price",
                  currency: "gbp",
                  unit_amount: item.unitAmount,
                  recurring: { interval: "month", interval_count: 1 },
                },
              })),
            },
          } as Json,
        };
        subscriptions.set(subscriptionId, subscription);
        emit("customer.subscription.created", subscription.object);
        const { invoice } = invoiceFor(subscription, method, start, end, "subscription_create");
        subscription.object.latest_invoice = invoice.id;
        Object.assign(object, {
          status: "complete",
          payment_status: "paid",
          subscription: subscriptionId,
          invoice: invoice.id,
        });
        emit("checkout.session.completed", object);
        return { ok: true };
      }
      const amount = Number(object.amount_total);
      if (options.asyncPayment) {
        const intent: Json = {
          id: id("pi"),
          object: "payment_intent",
          amount,
          amount_received: 0,
          currency: "gbp",
          customer: owner,
          payment_method: method.object.id,
          metadata: session.paymentIntentMetadata,
          status: "processing",
          latest_charge: null,
          last_payment_error: null,
          created: now(),
          livemode: false,
        };
        paymentIntents.set(String(intent.id), intent);
        Object.assign(object, { status: "complete", payment_status: "unpaid", payment_intent: intent.id });
        emit("payment_intent.processing", intent);
        emit("checkout.session.completed", object);
        return { ok: true };
      }
      const { intent, error } = charge({
        amount,
        customer: owner,
        method,
        metadata: session.paymentIntentMetadata,
        offSession: false,
      });
      // A refused card leaves the session open: the customer may try another.
      if (error) return { ok: false, code: String(error.code), declineCode: String(error.decline_code) };
      Object.assign(object, { status: "complete", payment_status: "paid", payment_intent: intent.id });
      emit("checkout.session.completed", object);
      return { ok: true };
    },

    async settleAsyncPayment(sessionId, succeeded) {
      const session = sessions.get(sessionId);
      const intent = paymentIntents.get(String(session?.object.payment_intent));
      if (!session || !intent || intent.status !== "processing") throw new Error("no payment is clearing");
      if (succeeded) {
        Object.assign(intent, {
          status: "succeeded",
          amount_received: intent.amount,
          latest_charge: id("ch"),
        });
        Object.assign(session.object, { payment_status: "paid" });
        emit("payment_intent.succeeded", intent);
        emit("checkout.session.async_payment_succeeded", session.object);
      } else {
        Object.assign(intent, {
          status: "requires_payment_method",
          last_payment_error: {
            type: "card_error",
            code: "payment_method_not_available",
            message: "The bank refused the debit.",
          },
        });
        emit("payment_intent.payment_failed", intent);
        emit("checkout.session.async_payment_failed", session.object);
      }
    },

    async expireCheckout(sessionId) {
      const session = openSession(sessionId);
      Object.assign(session.object, { status: "expired" });
      emit("checkout.session.expired", session.object);
    },

    async renewSubscription(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no such subscription ${subscriptionId}`);
      const sub = subscription.object;
      if (sub.status === "canceled") throw new Error(`subscription ${subscriptionId} is canceled`);
      const items = (sub.items as { data: Json[] }).data;
      const start = Number(items[0]?.current_period_end);
      const end = addMonth(start);
      const method = paymentMethods.get(String(sub.default_payment_method));
      if (!method) throw new Error("the subscription has no card");
      for (const item of items) Object.assign(item, { current_period_start: start, current_period_end: end });
      const { invoice, paid } = invoiceFor(subscription, method, start, end, "subscription_cycle");
      const previous = { status: sub.status };
      Object.assign(sub, { latest_invoice: invoice.id, status: paid ? "active" : "past_due" });
      emit("customer.subscription.updated", sub, previous);
      return { paid, invoiceId: String(invoice.id) };
    },

    detachPaymentMethod(paymentMethodId) {
      const method = paymentMethods.get(paymentMethodId);
      if (method) {
        method.object.customer = null;
        emit("payment_method.detached", method.object);
      }
    },

    failNextRequests(count) {
      failures = count;
    },

    holdWebhooks() {
      held ??= [];
    },

    async releaseWebhooks(order = (events) => events) {
      const waiting = held ?? [];
      held = null;
      await Promise.all(order(waiting).map((event) => send(event)));
    },

    async redeliver(eventId) {
      const event = events.find((candidate) => candidate.id === eventId);
      if (!event) throw new Error(`no such event ${eventId}`);
      return send(event);
    },

    async deliverRaw(body, signature) {
      const parsed = JSON.parse(body) as { id: string; type: string };
      return post(body, signature, parsed);
    },

    sign,

    async flush() {
      for (;;) {
        const current = chain;
        await current;
        if (current === chain) return;
      }
    },

    subscription: (subscriptionId) => subscriptions.get(subscriptionId)?.object,
    paymentIntent: (intentId) => paymentIntents.get(intentId),

    async close() {
      await standIn.flush();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}
