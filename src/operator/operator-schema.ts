import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Posts the operator publishes to every developer (emailed, and listed in the portal). */
export const changelogPosts = pgTable("changelog_posts", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  body: text("body").notNull(),
  postedAt: timestamp("posted_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** Endpoints the operator has withdrawn (legal or safety reasons); a row present means 410 for everyone. */
export const withdrawnEndpoints = pgTable("withdrawn_endpoints", {
  endpoint: text("endpoint").primaryKey(),
  reason: text("reason").notNull(),
  withdrawnAt: timestamp("withdrawn_at", { withTimezone: true, mode: "date" }).notNull(),
});
