import type {} from "@fastify/cookie";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../http/errors.ts";

export const csrfCookie = "csrf_token";
const stateChanging = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit CSRF for the platform: every response sets a readable `csrf_token` cookie if absent, and every
 * state-changing request (register and login included) must echo it in `X-CSRF-Token`.
 */
export function registerCsrf(app: FastifyInstance, options: { secureCookies: boolean }): void {
  app.addHook("onRequest", async (request, reply) => {
    const cookieToken = request.cookies[csrfCookie];
    if (!cookieToken) {
      reply.setCookie(csrfCookie, randomBytes(24).toString("base64url"), {
        path: "/",
        sameSite: "lax",
        secure: options.secureCookies,
        httpOnly: false,
      });
    }
    if (!stateChanging.has(request.method)) return;
    const headerToken = request.headers["x-csrf-token"];
    if (!cookieToken || typeof headerToken !== "string" || !sameToken(cookieToken, headerToken)) {
      throw new ApiError("csrf_failed");
    }
  });
}
