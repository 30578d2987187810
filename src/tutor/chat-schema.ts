import { z } from "zod";
import { teachingStyles } from "./messages.ts";

const maxTotalCharacters = 24_000;

const message = z.strictObject({
  role: z.enum(["user", "assistant"], { error: "must be 'user' or 'assistant' (no system messages)" }),
  content: z.string().min(1).max(4_000),
});

const messages = z
  .array(message)
  .min(1)
  .max(50)
  .superRefine((list, context) => {
    const total = list.reduce((sum, item) => sum + item.content.length, 0);
    if (total > maxTotalCharacters) {
      context.addIssue({
        code: "custom",
        message: `the messages hold ${total} characters; at most 24,000 in all`,
      });
    }
    if (list.length > 0 && list[list.length - 1]?.role !== "user") {
      context.addIssue({
        code: "custom",
        path: [list.length - 1, "role"],
        message: "the last message must be the caller's (role 'user')",
      });
    }
  });

export const customGenieSchema = z.strictObject({
  name: z.string().trim().min(1).max(60),
  subject: z.string().trim().min(1).max(120),
  teachingStyle: z.enum(teachingStyles).default("friendly"),
  instructions: z.string().max(2_000).optional(),
  avoidTopics: z
    .union([z.string().trim().min(1).max(100), z.array(z.string().trim().min(1).max(100)).max(20)])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
});

export const genieChatBody = z.strictObject({ messages, stream: z.boolean().default(true) });
export const generalChatBody = z.strictObject({
  messages,
  stream: z.boolean().default(true),
  genie: customGenieSchema.optional(),
});
