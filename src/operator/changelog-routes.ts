import { desc } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Database } from "../storage/database.ts";
import { changelogPosts } from "./operator-schema.ts";

/** GET /platform/api/changelog: the operator's posts, newest first; public, like a changelog page. */
export function registerChangelogRoutes(app: FastifyInstance, dependencies: { db: Database }): void {
  const options = {
    config: { openapi: { withoutSession: true } },
    schema: { tags: ["Platform"], summary: "Changelog posts, newest first" },
  };
  app.get("/platform/api/changelog", options, async () => {
    const posts = await dependencies.db
      .select()
      .from(changelogPosts)
      .orderBy(desc(changelogPosts.postedAt))
      .limit(50);
    return {
      posts: posts.map((post) => ({
        id: post.id,
        title: post.title,
        body: post.body,
        postedAt: post.postedAt.toISOString(),
      })),
    };
  });
}
