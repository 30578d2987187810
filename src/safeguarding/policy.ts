import { safeguardingReply } from "./replies.ts";
import { severityBehaviour } from "./taxonomy.ts";
import type { SafeguardingAssessment, SupportResource } from "./taxonomy.ts";

/** The `safeguarding` NDJSON event of API §5. Carries no message text: only category, severity, services. */
export interface SafeguardingEvent {
  type: "safeguarding";
  category: SafeguardingAssessment["category"];
  severity: SafeguardingAssessment["severity"];
  resources: SupportResource[];
}

export type SafeguardingDecision =
  /** Nothing found: tutor as normal. */
  | { action: "continue" }
  /** Tutor answers; the event is emitted first and `supportLine` goes before the answer. */
  | { action: "continue_with_support"; event: SafeguardingEvent; supportLine: string }
  /** No tutoring this turn: send `reply`, finish with "safeguarding", charge nothing. */
  | {
      action: "stop_tutoring";
      event: SafeguardingEvent;
      reply: string;
      finishReason: "safeguarding";
      chargePence: 0;
    };

export function safeguardingDecision(assessment: SafeguardingAssessment | null): SafeguardingDecision {
  if (assessment === null) return { action: "continue" };
  const event: SafeguardingEvent = {
    type: "safeguarding",
    category: assessment.category,
    severity: assessment.severity,
    resources: assessment.resources.map((resource) => ({ ...resource })),
  };
  const text = safeguardingReply(assessment);
  if (severityBehaviour[assessment.severity].stopsTutoring) {
    return { action: "stop_tutoring", event, reply: text, finishReason: "safeguarding", chargePence: 0 };
  }
  return { action: "continue_with_support", event, supportLine: text };
}
