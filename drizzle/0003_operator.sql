CREATE TABLE "changelog_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawn_endpoints" (
	"endpoint" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"withdrawn_at" timestamp with time zone NOT NULL
);
