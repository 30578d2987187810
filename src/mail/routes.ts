import type { FastifyInstance } from "fastify";
import type { AccountService } from "../accounts/account-service.ts";
import { requireAccount } from "../platform/session.ts";
import type { Database } from "../storage/database.ts";
import { listOutbox } from "./mailer.ts";

/** GET /platform/api/messages: the outbox, for developers without an SMTP server. */
export function registerMessageRoutes(
  app: FastifyInstance,
  dependencies: { accounts: AccountService; db: Database },
) {
  const schema = { tags: ["Platform"], summary: "Messages sent to the account (the outbox)" };
  app.get("/platform/api/messages", { schema }, async (request) => {
    const account = await requireAccount(request, dependencies.accounts);
    const messages = await listOutbox(dependencies.db, account.id);
    return { messages, count: messages.length };
  });
}
