import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiPrefix } from "../http/api-conventions.ts";
import type { ApiRouteGuard } from "../http/api-guard.ts";
import { ApiError } from "../http/errors.ts";
import { prepareBody, sendPrepared, type PreparedBody } from "../http/prepared-body.ts";
import {
  examBoardNames,
  filterSubjects,
  parseExamBoard,
  parseQualification,
  qualificationNames,
  specPointsView,
  subjectView,
  treeView,
} from "./catalogue-views.ts";
import type { CatalogueSnapshot } from "./model.ts";
import {
  createCatalogueSearch,
  searchResultTypes,
  type CatalogueSearch,
} from "./search/index.ts";

const dataGuard: ApiRouteGuard = { scope: "curriculum:read", ai: false, requiresDataUnlock: true };
const tags = ["Curriculum"];

const qualificationParam = z
  .string()
  .max(40)
  .optional()
  .transform((value, context) => {
    if (value === undefined) return undefined;
    const parsed = parseQualification(value);
    if (!parsed) {
      context.addIssue({ code: "custom", message: `must be one of: ${qualificationNames.join(", ")}` });
      return z.NEVER;
    }
    return parsed;
  });

const examBoardParam = z
  .string()
  .max(60)
  .optional()
  .transform((value, context) => {
    if (value === undefined) return undefined;
    const parsed = parseExamBoard(value);
    if (!parsed) {
      context.addIssue({
        code: "custom",
        message: `must be one of: ${examBoardNames.join(", ")} (or edexcel, eduqas, pearson)`,
      });
      return z.NEVER;
    }
    return parsed;
  });

/**
 * Prepared once per distinct request: the catalogue never changes while the process runs, so neither do these
 * bodies. Only keys that name something real are kept, so made-up ids cannot grow the cache.
 */
function memoise(compute: (key: string) => PreparedBody | null): (key: string) => PreparedBody | null {
  const cache = new Map<string, PreparedBody>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      const computed = compute(key);
      if (computed === null) return null;
      value = computed;
      cache.set(key, value);
    }
    return value;
  };
}

const conditionalNote =
  " Each response carries an `ETag`; send it back in `If-None-Match` to get `304 Not Modified` without the body.";

export function registerCatalogueRoutes(app: FastifyInstance, dependencies: { catalogue: CatalogueSnapshot }): void {
  const { catalogue } = dependencies;
  // Built on the first search rather than at start-up, where it was the largest single cost (about 1.5 s for the
  // full catalogue); later searches use the same index.
  let searchIndex: CatalogueSearch | undefined;
  const catalogueSearch = () => (searchIndex ??= createCatalogueSearch(catalogue));
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const subjectListJson = memoise((key) => {
    const [qualification, examBoardId] = key.split("|");
    const subjects = filterSubjects(catalogue, {
      qualification: parseQualification(qualification ?? "") ?? undefined,
      examBoardId: parseExamBoard(examBoardId ?? "") ?? undefined,
    }).map(subjectView);
    return prepareBody({ subjects, count: subjects.length });
  });
  const treeJson = memoise((subjectId) => {
    const subject = catalogue.subjectById.get(subjectId);
    return subject ? prepareBody(treeView(subject)) : null;
  });
  const specPointsJson = memoise((subtopicId) => {
    const subtopic = catalogue.subtopicById.get(subtopicId);
    const subject = subtopic ? catalogue.subjectById.get(subtopic.subjectId) : undefined;
    return subtopic && subject ? prepareBody(specPointsView(subtopic, subject)) : null;
  });

  routes.get(
    `${apiPrefix}/subjects`,
    {
      // Without a query string, the unfiltered list.
      config: { guard: dataGuard, prepared: () => subjectListJson("|") },
      schema: {
        tags,
        summary: "List specifications",
        description: `Ordered by qualification, name, exam board. Filters are case-insensitive.${conditionalNote}`,
        querystring: z.object({ qualification: qualificationParam, examBoard: examBoardParam }),
      },
    },
    (request, reply) => {
      sendPrepared(
        request,
        reply,
        subjectListJson(`${request.query.qualification ?? ""}|${request.query.examBoard ?? ""}`)!,
      );
    },
  );

  routes.get(
    `${apiPrefix}/subjects/:subjectId/tree`,
    {
      config: { guard: dataGuard, prepared: treeJson },
      schema: {
        tags,
        summary: "A specification's topics and subtopics",
        description: `Topics and subtopics in specification order.${conditionalNote}`,
        params: z.object({ subjectId: z.string().max(200) }),
      },
    },
    (request, reply) => {
      const json = treeJson(request.params.subjectId);
      if (!json) throw new ApiError("subject_not_found", { param: "subjectId" });
      sendPrepared(request, reply, json);
    },
  );

  routes.get(
    `${apiPrefix}/search`,
    {
      config: { guard: dataGuard },
      schema: {
        tags,
        summary: "Search subjects, topics and subtopics",
        description: "Stemmed, typo-tolerant and prefix-matching; names weigh more than keywords and descriptions.",
        querystring: z.object({
          q: z.string().trim().min(1).max(200),
          qualification: qualificationParam,
          examBoard: examBoardParam,
          subjectId: z.string().max(200).optional(),
          type: z.enum(searchResultTypes).optional(),
          limit: z.coerce.number().int().min(1).max(50).default(20),
        }),
      },
    },
    async (request) => {
      const { q, qualification, examBoard, subjectId, type, limit } = request.query;
      if (subjectId !== undefined && !catalogue.subjectById.has(subjectId)) {
        throw new ApiError("subject_not_found", { param: "subjectId" });
      }
      const results = catalogueSearch().search({
        q,
        limit,
        ...(qualification ? { qualification } : {}),
        ...(examBoard ? { examBoardId: examBoard } : {}),
        ...(subjectId ? { subjectId } : {}),
        ...(type ? { type } : {}),
      });
      return { query: q, results, count: results.length };
    },
  );

  routes.get(
    `${apiPrefix}/subtopics/:subtopicId/spec-points`,
    {
      config: { guard: dataGuard, prepared: specPointsJson },
      schema: {
        tags,
        summary: "Specification references for a subtopic",
        description: `Codes, unit names, our mapping and the link to the board's document; never the board's wording.${conditionalNote}`,
        params: z.object({ subtopicId: z.string().max(300) }),
      },
    },
    (request, reply) => {
      const json = specPointsJson(request.params.subtopicId);
      if (!json) throw new ApiError("subtopic_not_found", { param: "subtopicId" });
      sendPrepared(request, reply, json);
    },
  );
}
