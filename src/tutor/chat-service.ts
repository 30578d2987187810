import { ModelUnavailableError } from "../ai/errors.ts";
import type { Charging, ChargeKind, Reservation } from "../billing/charging.ts";
import { reserveOrRefuse } from "../billing/paid-call.ts";
import type { KeyPrincipal } from "../keys/key-store.ts";
import { ApiError, errorCatalogue } from "../http/errors.ts";
import { assessConversation } from "../safeguarding/detector.ts";
import { safeguardingDecision } from "../safeguarding/policy.ts";
import {
  checkTutorRequest,
  createOutputGuard,
  hardenCustomInstructions,
} from "../safeguarding/tutor-policy.ts";
import { BoundedSet } from "../shared/bounded-set.ts";
import { newId } from "../shared/ids.ts";
import type { ChatEvent } from "./chat-events.ts";
import type { TutorEngine, TutorSelection, TutorStreamPart } from "./engine.ts";
import type { ChatMessage, TeachingStyle } from "./messages.ts";
import type { NoteRetriever } from "./retrieval.ts";

export interface ChatDependencies {
  engine: TutorEngine;
  retriever: NoteRetriever;
  charging: Charging;
  /** Read once per turn: its link is the public address, known once the server listens. */
  attribution: () => { text: string; url: string };
  /** Counts safeguarding events by category and severity; never message text. */
  onSafeguarding: (category: string, severity: string) => void;
}

export interface ChatTurn {
  principal: KeyPrincipal;
  requestId: string;
  kind: Extract<ChargeKind, "genie_chat" | "chat">;
  messages: ChatMessage[];
  tutor: TutorSelection;
  teachingStyle: TeachingStyle;
  signal: AbortSignal;
}

/** Accounts whose last chat reservation on this instance was refused for balance (bounded; oldest forgotten). */
const recentlyShort = new BoundedSet<string>(10_000);

function genieOf(tutor: TutorSelection): { shortName?: string; name: string; custom: boolean } {
  if (tutor.kind === "genie")
    return { shortName: tutor.subject.genie.shortName, name: tutor.subject.genie.name, custom: false };
  if (tutor.kind === "custom") return { name: tutor.genie.name, custom: true };
  return { shortName: "study-tutor", name: "Study Tutor", custom: false };
}

/**
 * One chat turn as a stream of wire events. The safety and policy checks come first (pure, well under a
 * millisecond). The price is reserved before any event is produced, so 402 is an ordinary error; on the tutoring
 * path the model is asked first and the price reserved while the provider works, so the reservation overlaps the
 * provider's time to first token instead of adding to it (a refused reservation cancels the model call before
 * anything is sent). The first event is yielded only once the engine has produced its first part, so a provider
 * failure before that is an ordinary 503. Whatever ends the stream early — a refusal, a safeguarding reply, an
 * error, the client going away — returns the reservation.
 */
export async function startChatTurn(
  dependencies: ChatDependencies,
  turn: ChatTurn,
): Promise<AsyncGenerator<ChatEvent>> {
  const { charging } = dependencies;
  const attribution = dependencies.attribution();
  const start: ChatEvent = {
    type: "start",
    id: newId("chat"),
    model: dependencies.engine.model,
    genie: genieOf(turn.tutor),
  };
  const usage = (chargedPence: number, balancePence: number, inputTokens = 0, outputTokens = 0) => ({
    assistantMessages: 1,
    chargedPence,
    balancePence,
    inputTokens,
    outputTokens,
  });

  const assessment = assessConversation(turn.messages);
  const decision = safeguardingDecision(assessment);
  const safeguardingEvent: ChatEvent[] = decision.action === "continue" ? [] : [decision.event];
  const countSafeguarding = () => {
    if (assessment) dependencies.onSafeguarding(assessment.category, assessment.severity);
  };

  if (decision.action === "stop_tutoring") {
    const reservation = await reserveOrRefuse(charging, turn);
    countSafeguarding();
    const { balancePence } = await charging.release(reservation);
    return (async function* () {
      yield start;
      yield* safeguardingEvent;
      yield { type: "delta", text: decision.reply };
      yield { type: "done", finishReason: "safeguarding", usage: usage(0, balancePence), attribution };
    })();
  }

  const refusal = checkTutorRequest(turn.messages, {
    mode: turn.tutor.kind,
    ...(turn.tutor.kind === "genie" ? { subject: turn.tutor.subject.name } : {}),
    ...(turn.tutor.kind === "custom"
      ? { subject: turn.tutor.genie.subject, avoidTopics: turn.tutor.genie.avoidTopics }
      : {}),
  });
  if (refusal) {
    const reservation = await reserveOrRefuse(charging, turn);
    countSafeguarding();
    const { balancePence } = await charging.release(reservation);
    return (async function* () {
      yield start;
      yield* safeguardingEvent;
      yield { type: "delta", text: refusal.reply };
      yield { type: "refusal", reason: refusal.reason };
      yield { type: "done", finishReason: "refusal", usage: usage(0, balancePence), attribution };
    })();
  }

  const tutor: TutorSelection =
    turn.tutor.kind === "custom"
      ? { ...turn.tutor, fencedPreferences: hardenCustomInstructions(turn.tutor.genie).text }
      : turn.tutor;
  const context = dependencies.retriever.retrieve({ messages: turn.messages, tutor });
  const controller = new AbortController();
  turn.signal.addEventListener("abort", () => controller.abort(turn.signal.reason), { once: true });
  const replyRequest = { messages: turn.messages, tutor, teachingStyle: turn.teachingStyle, context };
  const accountId = turn.principal.accountId;
  const reserve = () =>
    reserveOrRefuse(charging, turn).then(
      (reservation) => {
        recentlyShort.delete(accountId);
        return reservation;
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.code === "insufficient_balance") recentlyShort.add(accountId);
        throw error;
      },
    );
  // An account refused for balance last time waits for its reservation before the provider is asked for a reply
  // that would most likely never be paid for.
  let reserving = recentlyShort.has(accountId) ? reserve() : null;
  if (reserving) await reserving;
  // Started first, the reservation's statements run while this thread builds and sends the provider's request:
  // the database works on its own (PostgreSQL, or PGlite on its thread), and posting them is all this one does.
  reserving ??= reserve();
  const parts = dependencies.engine.streamReply(replyRequest, controller.signal)[Symbol.asyncIterator]();
  const firstPart = parts.next();
  // Awaited below, after the reservation; until then a provider failing at once must not count as unhandled.
  firstPart.catch(() => {});

  let reservation: Reservation;
  try {
    reservation = await reserving;
  } catch (error) {
    // No reservation (402, or storage down): cancel the model call; nothing is streamed and nothing is charged.
    controller.abort();
    await parts.return?.().catch(() => {});
    throw error;
  }
  let first: IteratorResult<TutorStreamPart>;
  try {
    // Waiting for the first part here means a provider that fails at once is answered with an ordinary 503.
    first = await firstPart;
  } catch (error) {
    await charging.release(reservation).catch(() => {});
    throw error;
  }
  countSafeguarding();

  return (async function* () {
    let settled = false;
    try {
      yield start;
      if (decision.action === "continue_with_support") {
        yield* safeguardingEvent;
        yield { type: "delta", text: `${decision.supportLine}\n\n` };
      }
      const guard = createOutputGuard();
      let inputTokens = 0;
      let outputTokens = 0;
      let next: IteratorResult<TutorStreamPart> = first;
      let blocked = false;
      try {
        while (!next.done) {
          const part = next.value;
          if (part.type === "finish") {
            ({ inputTokens, outputTokens } = part);
          } else {
            const checked = guard.push(part.text);
            if (checked.release) yield { type: "delta", text: checked.release };
            blocked = checked.blocked;
            if (blocked) break;
          }
          next = await parts.next();
        }
      } catch (error) {
        settled = true;
        await charging.release(reservation).catch(() => {});
        const code = error instanceof ModelUnavailableError ? "model_unavailable" : "internal_error";
        yield {
          type: "error",
          error: code,
          message: errorCatalogue[code].message,
          refundedPence: reservation.pricePence,
        };
        return;
      }
      const ending = blocked ? { release: "", blocked: true } : guard.end();
      if (ending.release) yield { type: "delta", text: ending.release };
      if (ending.blocked) {
        controller.abort();
        settled = true;
        const { balancePence } = await charging.release(reservation);
        yield { type: "refusal", reason: "unsafe" };
        yield {
          type: "done",
          finishReason: "refusal",
          usage: usage(0, balancePence, inputTokens, outputTokens),
          attribution,
        };
        return;
      }
      settled = true;
      const committed = await charging.commit(reservation);
      yield {
        type: "done",
        finishReason: "stop",
        usage: usage(committed.chargedPence, committed.balancePence, inputTokens, outputTokens),
        attribution,
      };
    } finally {
      // The client went away (or the stream was closed) before the reply was complete: nothing is charged.
      if (!settled) {
        controller.abort();
        await charging.release(reservation).catch(() => {});
      }
      await parts.return?.().catch(() => {});
    }
  })();
}
