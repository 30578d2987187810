import { normalise } from "./normalise.ts";

/**
 * Model output a child-safe tutor must never show, checked one sentence at a time (and with the sentence
 * before it, so a method split across two sentences is still caught).
 */
const harmfulOutput: readonly RegExp[] = [
  // Step-by-step making of weapons, explosives, poisons or drugs.
  /\b(?:step \d|first|then|next|after that|finally|you will need|you need|to make|mix|combine|add|heat|pack|fill|attach|ignite|light the fuse|grind|extract|cook|dissolve|pour)\b[^.]{0,80}\b(?:pipe bomb|explosive|detonator|fuse|gunpowder|black powder|napalm|molotov|meth|methamphetamine|pseudoephedrine|crack cocaine|freebase|ricin|cyanide|nerve agent|mustard gas|chlorine gas|toxic gas|ghost gun|firearm|silencer)\b/,
  // Self-harm and suicide methods, lethal doses, hiding self-harm or an eating disorder.
  /\b(?:lethal|fatal|deadly) (?:dose|amount|quantity)\b[^.]{0,30}\b(?:is|would be|of)\b|\b\d+ ?(?:mg|g|grams|tablets|pills)\b[^.]{0,30}\b(?:would|will|is enough to|can) (?:kill|be fatal|be lethal)\b/,
  /\b(?:painless|easiest|quickest|best|most effective) (?:way|method|methods|ways) to (?:die|kill yourself|end your life|commit suicide|self harm)\b|\bcut (?:deeper|vertically|along the vein)\b/,
  /\b(?:hide|hiding|cover|covering) (?:your |the )?(?:cuts|scars|self harm|not eating|weight loss)\b[^.]{0,40}\b(?:by|with|wear|try|use|from your|so (?:that )?(?:no one|nobody|your parents))\b/,
  /\b(?:eat|eating|stay|keep it) (?:under|below|less than|fewer than) \d{2,3} (?:calories|cals|kcal)\b|\b(?:make yourself|try to) (?:sick|throw up|vomit)\b|\bpro ana\b|\bthinspo\b/,
  // Grooming-like behaviour from the model itself.
  /\b(?:do not|dont|never) tell (?:your )?(?:parents|mum|dad|teacher|teachers|anyone|an adult|carer)\b|\bkeep (?:this|it|our (?:chat|conversation|secret)) (?:a )?secret\b|\b(?:we should|we could|we can|you should|you could|you can|lets|let us|shall we|why not) meet (?:up )?(?:in person|irl|in real life|after school|somewhere)\b|\bsend me (?:a )?(?:photo|pic|picture|selfie)s? of yourself\b|\bwhat is your (?:home )?address\b|\bdelete (?:this|our) (?:chat|conversation|messages)\b/,
  // Sexual content.
  /\b(?:porn|porno|pornographic|erotic|orgasm|horny|sexy (?:photo|pic|picture|selfie)|send (?:me )?nudes|sexual position)\b/,
  // Encouraging violence, hate or getting drugs.
  /\b(?:you should|go and|just|why not|you could) (?:stab|hurt|kill|beat up|attack|shoot|punch)\b[^.]{0,15}\b(?:him|her|them|someone|that person|the bully|your)\b/,
  /\b(?:all|those) (?:muslims|jews|christians|black people|immigrants|gay people|trans people|refugees|women) (?:should|must|deserve to) (?:die|be killed|be deported|burn|be wiped out)\b/,
  /\byou can (?:buy|get|order) (?:weed|cannabis|cocaine|ket|ketamine|mdma|drugs|xanax|pills)\b[^.]{0,20}\b(?:from|on|at|off|online)\b/,
  // Step-by-step account intrusion.
  /\b(?:to (?:hack|get into|break into|access) (?:someone|their|your (?:ex|friend|teacher)s?|another persons?) (?:account|instagram|snapchat|email|phone))\b/,
];

export interface GuardRelease {
  /** Text that has been checked and may be sent now. */
  release: string;
  /** True once a sentence has been stopped; nothing after it is ever released. */
  blocked: boolean;
}

export interface OutputGuard {
  push(chunk: string): GuardRelease;
  end(): GuardRelease;
}

/** Held text is checked without a sentence end once it grows this long, so a run-on sentence cannot stall the stream. */
const maximumHeldCharacters = 600;

/**
 * Streaming filter for model text: holds text until a sentence ends, checks the sentence, then releases it.
 * When nothing is blocked, the concatenation of everything released equals the input exactly.
 */
export function createOutputGuard(): OutputGuard {
  let held = "";
  let previousSentence = "";
  let blocked = false;

  const check = (sentence: string): boolean => {
    const alone = normalise(sentence).text;
    const withPrevious = normalise(`${previousSentence} ${sentence}`).text;
    return harmfulOutput.some((pattern) => pattern.test(alone) || pattern.test(withPrevious));
  };

  const releaseComplete = (isFinal: boolean): GuardRelease => {
    if (blocked) return { release: "", blocked: true };
    let release = "";
    for (;;) {
      let end = sentenceEnd(held);
      if (end === -1 && held.length > maximumHeldCharacters) end = lastSpace(held);
      if (end === -1 && isFinal && held !== "") end = held.length;
      if (end === -1) break;
      const sentence = held.slice(0, end);
      if (check(sentence)) {
        blocked = true;
        held = "";
        return { release, blocked: true };
      }
      release += sentence;
      previousSentence = sentence;
      held = held.slice(end);
    }
    return { release, blocked: false };
  };

  return {
    push(chunk: string): GuardRelease {
      if (!blocked) held += chunk;
      return releaseComplete(false);
    },
    end(): GuardRelease {
      return releaseComplete(true);
    },
  };
}

/** End of the first complete sentence, including the whitespace after it; -1 if none is complete yet. */
function sentenceEnd(text: string): number {
  const match = /[.!?…]+["')\]]*\s+|\n+/.exec(text);
  if (match === null) return -1;
  const end = match.index + match[0].length;
  // Whitespace may continue in the next chunk: wait until something other than whitespace follows.
  return end < text.length ? end : -1;
}

function lastSpace(text: string): number {
  const index = text.lastIndexOf(" ");
  return index <= 0 ? text.length : index + 1;
}
