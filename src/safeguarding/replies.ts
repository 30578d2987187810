import type { SafeguardingAssessment, SafeguardingCategory, SupportResource } from "./taxonomy.ts";

/**
 * Our own words for a 14–19 year old who has just told a computer something hard. Plain, warm, no
 * judgement, no promises of secrecy, always pointing to a trusted adult and to the named services.
 */
const acknowledgements: Record<SafeguardingCategory, string> = {
  immediate_danger: "I'm really worried about your safety right now, and I'm glad you told me.",
  self_harm_suicide:
    "Thank you for telling me. It sounds like you're going through something really painful, and you don't have to face it on your own.",
  sexual_exploitation_grooming:
    "Thank you for telling me. What you've described is not okay and it is not your fault, whatever anyone has said to you.",
  abuse_neglect:
    "Thank you for telling me. Nobody should hurt you or leave you without what you need, and none of this is your fault.",
  honour_based_abuse:
    "Thank you for telling me. You have the right to make choices about your own body and your own future, and there are people whose job is to protect you.",
  criminal_exploitation:
    "Thank you for telling me. If someone is making you carry, hold or sell things, you are the one being taken advantage of, and you can get help without being judged.",
  serious_violence:
    "Thank you for telling me. Your safety matters, and this is too big to deal with on your own.",
  domestic_abuse:
    "Thank you for telling me. What happens between adults at home is never your fault, and it's okay to ask for help for you and for them.",
  radicalisation_extremism:
    "Thank you for being honest with me. When people online push you towards hurting others or joining a group, it's a sign they want to use you, and talking it through can really help.",
  eating_disorder:
    "Thank you for telling me. How you feel about food and your body matters, and support really does help.",
  substance_misuse: "Thanks for being open about this. You deserve honest, non-judgemental support.",
  bullying: "I'm sorry this is happening. Nobody deserves to be treated like that, and it's not your fault.",
  mental_health_distress: "It sounds like things feel really heavy at the moment. Thank you for saying so.",
};

const trustedAdult =
  "Please talk to an adult you trust today: a parent or carer, a teacher, or your school's safeguarding lead. They can help keep you safe.";

const immediateSafety = "If you are in danger right now, or might act on these thoughts, call 999.";

function describe(resource: SupportResource): string {
  return `${resource.name}: ${resource.contact} (${resource.url})`;
}

/**
 * The text the caller sees. High severity: the whole reply, tutoring stops. Medium and low: a short
 * supportive line that goes before the tutor's answer.
 */
export function safeguardingReply(assessment: SafeguardingAssessment): string {
  const services = assessment.resources.filter((resource) => !resource.contact.includes("999"));
  const serviceList = services.map((resource) => `- ${describe(resource)}`).join("\n");
  const acknowledgement = acknowledgements[assessment.category];

  if (assessment.severity === "high") {
    const safety = assessment.resources.some((resource) => resource.contact.includes("999"))
      ? `\n\n${immediateSafety}`
      : "";
    return (
      `${acknowledgement}\n\n${trustedAdult}${safety}\n\n` +
      `You can also talk to someone now, for free:\n${serviceList}\n\n` +
      "I'll pause the lesson for now. I'm still here, and we can carry on whenever you're ready."
    );
  }

  const named = services.map(
    (resource) => `${resource.name} (${resource.contact.replace(/^./, (letter) => letter.toLowerCase())})`,
  );
  const joined =
    named.length > 1
      ? `${named.slice(0, -1).join(", ")} or ${named[named.length - 1] ?? ""}`
      : (named[0] ?? "");
  if (assessment.severity === "medium") {
    return `${acknowledgement} It could really help to talk to an adult you trust, like a parent, carer or teacher. You can also contact ${joined}.`;
  }
  return `${acknowledgement} If it would help to talk, ${joined} are there for you.`;
}
