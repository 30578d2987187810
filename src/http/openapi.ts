import { errorCatalogue } from "./errors.ts";

/** The document's frame; paths come from the route schemas. */
export function openApiInfo(publicUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Syllabi API",
      version: "1.0.0",
      description:
        "Curriculum data and tutoring for UK education. Syllabi is independent and is not affiliated with, " +
        "or endorsed by, any exam board. Every error has the body `{ error, message, requestId, param? }`; codes: " +
        Object.entries(errorCatalogue)
          .map(([code, { status }]) => `${status} ${code}`)
          .join(", ") +
        ".",
      license: { name: "Proprietary", identifier: "LicenseRef-Syllabi" },
    },
    servers: [{ url: publicUrl }],
    security: [{ bearerKey: [] }],
    components: {
      securitySchemes: {
        bearerKey: { type: "http" as const, scheme: "bearer", description: "An API key: syl_live_…" },
      },
    },
    tags: [
      { name: "Curriculum", description: "Catalogue data; free after the first top-up" },
      { name: "Tutoring", description: "Model-backed, paid endpoints" },
      { name: "Account", description: "Balance, usage and keys" },
    ],
  };
}
