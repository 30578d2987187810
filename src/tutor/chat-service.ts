import { ModelUnavailableError } from "../ai/errors.ts";
import type { Charging, ChargeKind, Reservation } from "../billing/charging.ts";
import { reserveOrRefuse } from "../billing/paid-call.ts";
import type { KeyPrincipal } from "../keys/key-store.ts";
import { ApiError, errorCatalogue } from "../http/errors.ts";
import { assessConversation } from "../safeguarding/detector.ts";
import type { SafeguardingSecondReader } from "../safeguarding/model-reader.ts";
import { safeguardingDecision, type SafeguardingDecision } from "../safeguarding/policy.ts";
import { severities, type SafeguardingAssessment } from "../safeguarding/taxonomy.ts";
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
  /** On the model path: the model reads each turn too, and may raise the offline finding (never lower it). */
  secondReader?: SafeguardingSecondReader;
  /** Counts the second reader's outcomes ("raised", "unchanged", or why it failed); never message text. */
  onSecondReading?: (outcome: string) => void;
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
 * failure before that is an ordinary 503. On the model path the model's second safeguarding reading runs alongside
 * the reservation and the provider's first token, and is awaited before anything is streamed, so a turn it raises
 * to high gets the safeguarding reply instead of tutoring. Whatever ends the stream early — a refusal, a safeguarding
 * reply, an error, the client going away — returns the reservation.
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

  const countSafeguarding = (assessment: SafeguardingAssessment | null) => {
    if (assessment) dependencies.onSafeguarding(assessment.category, assessment.severity);
  };
  /** The safeguarding reply instead of tutoring: the reservation (taken, so 402 stays 402) is returned in full. */
  const stopForSafeguarding = async (
    assessment: SafeguardingAssessment,
    decision: Extract<SafeguardingDecision, { action: "stop_tutoring" }>,
    reservation?: Reservation,
  ) => {
    const held = reservation ?? (await reserveOrRefuse(charging, turn));
    countSafeguarding(assessment);
    const { balancePence } = await charging.release(held);
    return (async function* (): AsyncGenerator<ChatEvent> {
      yield start;
      yield decision.event;
      yield { type: "delta", text: decision.reply };
      yield { type: "done", finishReason: "safeguarding", usage: usage(0, balancePence), attribution };
    })();
  };

  const offlineAssessment = assessConversation(turn.messages);
  const offlineDecision = safeguardingDecision(offlineAssessment);
  if (offlineDecision.action === "stop_tutoring")
    return stopForSafeguarding(offlineAssessment!, offlineDecision);

  const controller = new AbortController();
  turn.signal.addEventListener("abort", () => controller.abort(turn.signal.reason), { once: true });
  /** The model's second reading of the turn (on the model path), which may raise the offline finding. */
  const readAgain = () => secondOpinion(dependencies, turn, offlineAssessment, controller.signal);

  const refusal = checkTutorRequest(turn.messages, {
    mode: turn.tutor.kind,
    ...(turn.tutor.kind === "genie" ? { subject: turn.tutor.subject.name } : {}),
    ...(turn.tutor.kind === "custom"
      ? { subject: turn.tutor.genie.subject, avoidTopics: turn.tutor.genie.avoidTopics }
      : {}),
  });
  if (refusal) {
    const assessment = await readAgain();
    const decision = safeguardingDecision(assessment);
    if (decision.action === "stop_tutoring") return stopForSafeguarding(assessment!, decision);
    const reservation = await reserveOrRefuse(charging, turn);
    countSafeguarding(assessment);
    const { balancePence } = await charging.release(reservation);
    return (async function* () {
      yield start;
      yield* eventOf(decision);
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
  const reading = readAgain();
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
  // The second reading runs alongside the provider's first token; a turn it raises to high stops here, before
  // anything is streamed, whatever the tutor's call does.
  const assessment = await reading;
  const decision = safeguardingDecision(assessment);
  if (decision.action === "stop_tutoring") {
    controller.abort();
    await parts.return?.().catch(() => {});
    return stopForSafeguarding(assessment!, decision, reservation);
  }
  let first: IteratorResult<TutorStreamPart>;
  try {
    // Waiting for the first part here means a provider that fails at once is answered with an ordinary 503.
    first = await firstPart;
  } catch (error) {
    await charging.release(reservation).catch(() => {});
    throw error;
  }
  countSafeguarding(assessment);

  return (async function* () {
    let settled = false;
    try {
      yield start;
      if (decision.action === "continue_with_support") {
        yield* eventOf(decision);
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

function eventOf(decision: SafeguardingDecision): ChatEvent[] {
  return decision.action === "continue" ? [] : [decision.event];
}

/**
 * The turn's assessment after the model's second reading: the model's finding when it is more severe than the
 * offline one, else the offline one. Never lower, never instead; without a second reader, or when it fails, the
 * offline finding stands.
 */
async function secondOpinion(
  dependencies: ChatDependencies,
  turn: ChatTurn,
  offline: SafeguardingAssessment | null,
  signal: AbortSignal,
): Promise<SafeguardingAssessment | null> {
  const reader = dependencies.secondReader;
  if (!reader) return offline;
  let reading: Awaited<ReturnType<SafeguardingSecondReader["read"]>>;
  try {
    reading = await reader.read(turn.messages, signal);
  } catch {
    // The caller went away; the turn is ending anyway.
    return offline;
  }
  if (reading.outcome === "failed") {
    dependencies.onSecondReading?.(reading.reason);
    return offline;
  }
  const raised =
    reading.assessment !== null &&
    (offline === null ||
      severities.indexOf(reading.assessment.severity) > severities.indexOf(offline.severity));
  dependencies.onSecondReading?.(raised ? "raised" : "unchanged");
  return raised ? reading.assessment : offline;
}
