import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AccountService } from "../accounts/account-service.ts";
import { ApiError } from "../http/errors.ts";
import type { KeyService } from "../keys/key-service.ts";
import type { KeyRecord } from "../keys/key-store.ts";
import { maxLiveKeys } from "../keys/key-store.ts";
import { scopes } from "../keys/scopes.ts";
import { requireAccount } from "./session.ts";

const createKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(60),
  scopes: z.array(z.enum(scopes)).min(1).max(scopes.length).optional(),
});

function publicKey(key: KeyRecord) {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

export function registerKeyRoutes(
  app: FastifyInstance,
  dependencies: { accounts: AccountService; keys: KeyService },
): void {
  const { accounts, keys } = dependencies;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Platform"];

  routes.get(
    "/platform/api/keys",
    { schema: { summary: "List the account's API keys", tags } },
    async (request) => {
      const account = await requireAccount(request, accounts);
      const list = await keys.list(account.id);
      return {
        keys: list.map(publicKey),
        live: list.filter((key) => !key.revokedAt).length,
        max: maxLiveKeys,
      };
    },
  );

  const createOptions = {
    config: { openapi: { successStatus: 201, errors: ["key_limit_reached", "account_suspended"] as const } },
    schema: { summary: "Create an API key (the secret is shown once)", body: createKeyBody, tags },
  };
  routes.post("/platform/api/keys", createOptions, async (request, reply) => {
    const account = await requireAccount(request, accounts);
    if (account.status !== "active") throw new ApiError("account_suspended");
    const created = await keys.create(account.id, request.body);
    if (created === "limit_reached") throw new ApiError("key_limit_reached");
    return reply.code(201).send({ key: publicKey(created.key), secret: created.secret });
  });

  routes.post(
    "/platform/api/keys/:keyId/revoke",
    {
      config: { openapi: { errors: ["not_found"] } },
      schema: { summary: "Revoke an API key", params: z.object({ keyId: z.string().max(100) }), tags },
    },
    async (request) => {
      const account = await requireAccount(request, accounts);
      const key = await keys.revoke(account.id, request.params.keyId);
      if (!key) throw new ApiError("not_found", { message: "There is no key with that id on this account." });
      return { key: publicKey(key) };
    },
  );
}
