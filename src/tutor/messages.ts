/** One turn of a conversation as the caller sends it. Nothing here is ever stored or logged. */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export const teachingStyles = ["friendly", "socratic", "concise", "step-by-step"] as const;
export type TeachingStyle = (typeof teachingStyles)[number];

/** The per-request custom tutor block of POST /api/v1/chat, after validation. Used once, never stored. */
export interface CustomGenie {
  name: string;
  subject: string;
  teachingStyle: TeachingStyle;
  instructions?: string;
  avoidTopics: string[];
}
