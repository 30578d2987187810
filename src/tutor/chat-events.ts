import type { SafeguardingAssessment } from "../safeguarding/taxonomy.ts";

/** The NDJSON wire events of §5, in order: start, safeguarding?, delta+, refusal?, then done or error. */
export type RefusalReason = "off_topic" | "unsafe" | "avoided_topic" | "academic_integrity";

export type ChatEvent =
  | { type: "start"; id: string; model: string; genie: { shortName?: string; name: string; custom: boolean } }
  | ({ type: "safeguarding" } & SafeguardingAssessment)
  | { type: "delta"; text: string }
  | { type: "refusal"; reason: RefusalReason }
  | {
      type: "done";
      finishReason: "stop" | "refusal" | "safeguarding";
      usage: {
        assistantMessages: number;
        chargedPence: number;
        balancePence: number;
        inputTokens: number;
        outputTokens: number;
      };
      attribution: { text: string; url: string };
    }
  | { type: "error"; error: "model_unavailable" | "internal_error"; message: string; refundedPence: number };
