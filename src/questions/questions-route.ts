import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Charging } from "../billing/charging.ts";
import { runPaidCall } from "../billing/paid-call.ts";
import type { CatalogueSnapshot } from "../catalogue/model.ts";
import { apiPrefix } from "../http/api-conventions.ts";
import { principalOf } from "../http/api-guard.ts";
import { ApiError } from "../http/errors.ts";
import { toApiErrorFromModel } from "../tutor/model-errors.ts";
import { questionTypes, type QuestionSource, type QuestionWriter } from "./model.ts";

const generateBody = z
  .strictObject({
    subtopicId: z.string().min(1).max(300).optional(),
    topic: z.string().trim().min(3).max(200).optional(),
    types: z.array(z.enum(questionTypes)).min(1).max(2).default(["written"]),
    count: z.number().int().min(1).max(20).default(5),
    subject: z.string().trim().min(1).max(120).optional(),
    qualification: z.string().trim().min(1).max(40).optional(),
    examBoard: z.string().trim().min(1).max(60).optional(),
  })
  .superRefine((body, context) => {
    if ((body.subtopicId === undefined) === (body.topic === undefined)) {
      context.addIssue({
        code: "custom",
        path: [body.subtopicId === undefined ? "subtopicId" : "topic"],
        message: "send exactly one of subtopicId or topic",
      });
    }
  });

/** POST /api/v1/questions/generate — 8p per set; a topic nothing covers is 422 and free. */
export function registerQuestionsRoute(
  app: FastifyInstance,
  dependencies: { catalogue: CatalogueSnapshot; writer: QuestionWriter; charging: Charging },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${apiPrefix}/questions/generate`,
    {
      config: {
        guard: { scope: "questions", ai: true, requiresDataUnlock: false, endpoint: "questions" },
        idempotency: "replay",
      },
      schema: {
        tags: ["Tutoring"],
        summary: "Generate an exam-style question set (8p)",
        body: generateBody,
      },
    },
    async (request) => {
      const body = request.body;
      let source: QuestionSource;
      if (body.subtopicId !== undefined) {
        const subtopic = dependencies.catalogue.subtopicById.get(body.subtopicId);
        const subject = subtopic && dependencies.catalogue.subjectById.get(subtopic.subjectId);
        if (!subtopic || !subject) throw new ApiError("subtopic_not_found", { param: "subtopicId" });
        source = { kind: "subtopic", subtopic, subject };
      } else {
        source = {
          kind: "topic",
          topic: body.topic ?? "",
          ...(body.subject ? { subjectHint: body.subject } : {}),
          ...(body.qualification ? { qualification: body.qualification } : {}),
          ...(body.examBoard ? { examBoard: body.examBoard } : {}),
        };
      }
      const controller = new AbortController();
      request.raw.once("close", () => controller.abort());
      const { value: result, usage } = await runPaidCall(
        dependencies.charging,
        { principal: principalOf(request), kind: "questions", requestId: request.id },
        async () => {
          try {
            const generated = await dependencies.writer.generate(
              { source, types: body.types, count: body.count },
              controller.signal,
            );
            return { charge: generated.ok, value: generated };
          } catch (error) {
            throw toApiErrorFromModel(error);
          }
        },
      );
      if (!result.ok) throw new ApiError("topic_not_covered", { param: "topic" });
      return {
        source: source.kind,
        topic: result.topic,
        subject: result.subject,
        subtopicId: result.subtopicId,
        questions: result.questions,
        count: result.questions.length,
        usage,
      };
    },
  );
}
