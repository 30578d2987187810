import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AccountService } from "../accounts/account-service.ts";
import type { AccountRow } from "../accounts/account-store.ts";
import { ApiError } from "../http/errors.ts";

export const sessionCookie = "syllabi_session";

export async function requireAccount(request: FastifyRequest, accounts: AccountService): Promise<AccountRow> {
  const account = await accounts.accountForSession(request.cookies[sessionCookie]);
  if (!account) throw new ApiError("unauthenticated");
  return account;
}

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date, secure: boolean): void {
  reply.setCookie(sessionCookie, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(sessionCookie, { path: "/", httpOnly: true, sameSite: "lax", secure });
}
