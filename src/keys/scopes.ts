export const scopes = ["curriculum:read", "align", "chat", "questions", "account:read"] as const;
export type Scope = (typeof scopes)[number];
