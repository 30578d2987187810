import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Charging } from "../billing/charging.ts";
import { runPaidCall } from "../billing/paid-call.ts";
import type { CatalogueSnapshot } from "../catalogue/model.ts";
import { apiPrefix } from "../http/api-conventions.ts";
import { principalOf } from "../http/api-guard.ts";
import { ApiError } from "../http/errors.ts";
import type { Aligner } from "./aligner.ts";

const alignBody = z.strictObject({
  subjectId: z.string().min(1).max(200),
  text: z.string().min(1).max(20_000),
  limit: z.number().int().min(1).max(20).default(5),
});

/** POST /api/v1/align — 1p: a teacher's text matched to a subject's subtopics. */
export function registerAlignRoute(
  app: FastifyInstance,
  dependencies: { catalogue: CatalogueSnapshot; aligner: Aligner; charging: Charging },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${apiPrefix}/align`,
    {
      config: {
        guard: { scope: "align", ai: true, requiresDataUnlock: false, endpoint: "align" },
        idempotency: "replay",
      },
      schema: {
        tags: ["Tutoring"],
        summary: "Align a teacher's text to a subject's subtopics (1p)",
        body: alignBody,
      },
    },
    async (request) => {
      const { subjectId, text, limit } = request.body;
      if (!dependencies.catalogue.subjectById.has(subjectId)) {
        throw new ApiError("subject_not_found", { param: "subjectId" });
      }
      const controller = new AbortController();
      request.raw.once("close", () => controller.abort());
      const { value: matches, usage } = await runPaidCall(
        dependencies.charging,
        { principal: principalOf(request), kind: "align", requestId: request.id },
        async () => ({
          charge: true,
          value: await dependencies.aligner.align({ subjectId, text, limit }, controller.signal),
        }),
      );
      return { subjectId, matches, usage };
    },
  );
}
