import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** The portal's files: plain HTML, CSS and ES modules, served as they are (no build step, nothing remote). */
export const portalRoot = fileURLToPath(new URL("../../public/", import.meta.url));

/** Scripts and styles only from this origin, so injected markup cannot run; the portal is never framed. */
export const portalSecurityHeaders: Record<string, string> = {
  "Content-Security-Policy": [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; "),
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

/**
 * Serves the developer portal at `/` and the developer terms at `/terms`. Encapsulated, so its headers apply
 * to portal pages only; a route per file (no wildcard), so unknown paths keep the service's JSON 404.
 */
export default async function portalPlugin(app: FastifyInstance): Promise<void> {
  app.addHook("onSend", async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(portalSecurityHeaders)) reply.header(name, value);
    // Pages and scripts change with each deploy and carry no fingerprint: revalidate rather than guess.
    reply.header("Cache-Control", "no-cache");
    return payload;
  });

  await app.register(fastifyStatic, { root: portalRoot, wildcard: false, index: ["index.html"] });

  app.get("/terms", async (_request, reply) => reply.sendFile("terms.html"));
}
