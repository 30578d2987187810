CREATE TABLE "billing_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"auto_top_up_enabled" boolean DEFAULT false NOT NULL,
	"auto_top_up_threshold_pence" integer,
	"auto_top_up_amount_pence" integer,
	"auto_top_up_pending_since" timestamp with time zone,
	"payment_method_id" text,
	"payment_method_last4" text,
	"subscription_id" text,
	"subscription_amount_pence" integer,
	"subscription_status" text
);
--> statement-breakpoint
CREATE TABLE "embedded_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"amount_pence" bigint NOT NULL,
	"vat_pence" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"failure_reason" text,
	"payment_id" text,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "embedded_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_pence" bigint NOT NULL,
	"refunded_pence" bigint DEFAULT 0 NOT NULL,
	"card_last4" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "embedded_webhook_deliveries" (
	"event_id" text PRIMARY KEY NOT NULL,
	"payload" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"key" text NOT NULL,
	"body_hash" text NOT NULL,
	"state" text DEFAULT 'in_flight' NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount_pence" bigint NOT NULL,
	"top_up_id" text,
	"reservation_id" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_known" CHECK ("ledger_entries"."kind" in ('topup_credit', 'charge', 'charge_returned', 'refund', 'adjustment'))
);
--> statement-breakpoint
CREATE TABLE "lot_draws" (
	"reservation_id" text NOT NULL,
	"top_up_id" text NOT NULL,
	"pence" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"kind" text NOT NULL,
	"pence" integer NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"key_id" text NOT NULL,
	"kind" text NOT NULL,
	"price_pence" bigint NOT NULL,
	"request_id" text NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "reservations_status_known" CHECK ("reservations"."status" in ('held', 'committed', 'released'))
);
--> statement-breakpoint
CREATE TABLE "top_ups" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_pence" bigint NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"checkout_id" text,
	"payment_id" text,
	"remaining_pence" bigint DEFAULT 0 NOT NULL,
	"refunded_pence" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "top_ups_remaining_not_negative" CHECK ("top_ups"."remaining_pence" >= 0)
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"calls" integer NOT NULL,
	"spend_pence" bigint NOT NULL,
	CONSTRAINT "usage_daily_account_id_day_kind_pk" PRIMARY KEY("account_id","day","kind")
);
--> statement-breakpoint
CREATE TABLE "usage_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "usage_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"pence" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_rollup_cycles" (
	"cycle_start" timestamp with time zone PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lot_draws" ADD CONSTRAINT "lot_draws_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lot_draws" ADD CONSTRAINT "lot_draws_top_up_id_top_ups_id_fk" FOREIGN KEY ("top_up_id") REFERENCES "public"."top_ups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embedded_webhook_due" ON "embedded_webhook_deliveries" USING btree ("delivered_at","next_attempt_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_account" ON "ledger_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_reservation_once" ON "ledger_entries" USING btree ("reservation_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_topup_credit_once" ON "ledger_entries" USING btree ("top_up_id") WHERE "ledger_entries"."kind" = 'topup_credit';--> statement-breakpoint
CREATE UNIQUE INDEX "lot_draws_unique" ON "lot_draws" USING btree ("reservation_id","top_up_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_account" ON "mail_outbox" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "prices_kind_effective" ON "prices" USING btree ("kind","effective_at");--> statement-breakpoint
CREATE INDEX "reservations_held" ON "reservations" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reservations_account" ON "reservations" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "top_ups_account" ON "top_ups" USING btree ("account_id","confirmed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "top_ups_checkout_unique" ON "top_ups" USING btree ("checkout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "top_ups_payment_unique" ON "top_ups" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "usage_events_time" ON "usage_events" USING btree ("created_at");