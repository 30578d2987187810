CREATE TABLE "embedded_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_pence" bigint NOT NULL,
	"vat_pence" bigint NOT NULL,
	"card_payment_id" text NOT NULL,
	"status" text NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stripe_customers" (
	"account_id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_customers_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_pence" integer NOT NULL,
	"status" text NOT NULL,
	"current_period_end" timestamp with time zone,
	"status_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	CONSTRAINT "subscriptions_status_known" CHECK ("subscriptions"."status" in ('active', 'past_due', 'canceled'))
);
--> statement-breakpoint
ALTER TABLE "billing_settings" ADD COLUMN "auto_top_up_disabled_reason" text;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD COLUMN "auto_top_up_disabled_message" text;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD COLUMN "auto_top_up_disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD COLUMN "payment_method_brand" text;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD COLUMN "subscription_pending_amount_pence" integer;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD COLUMN "subscription_pending_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "top_ups" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "top_ups" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "top_ups" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embedded_subscriptions_due" ON "embedded_subscriptions" USING btree ("status","current_period_end");--> statement-breakpoint
CREATE INDEX "subscriptions_account" ON "subscriptions" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "top_ups_subscription_period_unique" ON "top_ups" USING btree ("subscription_id","period_start") WHERE "top_ups"."subscription_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "top_ups_automatic_in_flight" ON "top_ups" USING btree ("account_id") WHERE "top_ups"."method" = 'automatic' and "top_ups"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "billing_settings" DROP COLUMN "auto_top_up_pending_since";--> statement-breakpoint
ALTER TABLE "billing_settings" DROP COLUMN "subscription_id";--> statement-breakpoint
ALTER TABLE "billing_settings" DROP COLUMN "subscription_amount_pence";--> statement-breakpoint
ALTER TABLE "billing_settings" DROP COLUMN "subscription_status";