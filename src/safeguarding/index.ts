export { assessConversation, assessMessage } from "./detector.ts";
export { safeguardingDecision } from "./policy.ts";
export type { SafeguardingDecision, SafeguardingEvent } from "./policy.ts";
export { safeguardingReply } from "./replies.ts";
export {
  categoryDefinitions,
  outranks,
  resourcesFor,
  safeguardingCategories,
  severities,
  severityBehaviour,
  supportServices,
} from "./taxonomy.ts";
export type { SafeguardingAssessment, SafeguardingCategory, Severity, SupportResource } from "./taxonomy.ts";
export { checkTutorRequest, createOutputGuard, hardenCustomInstructions } from "./tutor-policy.ts";
export type {
  GuardRelease,
  HardenedInstructions,
  OutputGuard,
  RefusalReason,
  TutorContext,
  TutorRefusal,
} from "./tutor-policy.ts";
