import { stemmer } from "stemmer";

/** Small, deterministic text tools shared by retrieval, the offline tutor and the offline question writer. */

const stopWords = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours ourselves out over own same she should so some such than that the their theirs them themselves then there " +
    "these they this those through to too under until up very was we were what when where which while who whom why will " +
    "with would you your yours yourself yourselves please tell explain help me know understand mean means meant thing things " +
    "really also get got want need like lot lots ok okay hi hello hey thanks thank make makes made happen happens " +
    "work works way ways something anything whats"
  ).split(" "),
);

/** Lower-cased words of a text, letters and digits only. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

/** A word reduced to the form used for matching; short and digit-bearing words (CO2, pH) stay as they are. */
export function stem(word: string): string {
  const plain = word.replace(/['’]s$/u, "");
  return plain.length <= 3 || /\d/.test(plain) ? plain : stemmer(plain);
}

/** The content-bearing stems of a text, in order, repeats kept. */
export function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !stopWords.has(word))
    .map(stem);
}

export function uniqueStems(text: string): Set<string> {
  return new Set(contentStems(text));
}

/** Fraction of `target`'s content stems that also occur in `probe` (0 when `target` has none). */
export function stemCoverage(target: string, probe: string): number {
  const targetStems = uniqueStems(target);
  if (targetStems.size === 0) return 0;
  const probeStems = uniqueStems(probe);
  let shared = 0;
  for (const item of targetStems) if (probeStems.has(item)) shared += 1;
  return shared / targetStems.size;
}

/** Splits prose into sentences without breaking on "e.g." or decimals. */
export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

export function firstSentence(text: string): string {
  return sentences(text)[0] ?? text.trim();
}

/** Ends a clause with a full stop unless it already has closing punctuation. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) return trimmed;
  const capitalised = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]["”)]?$/u.test(capitalised) ? capitalised : `${capitalised}.`;
}

export function lowerFirst(text: string): string {
  // Keep acronyms and proper capitals (DNA, ATP, Newton's) intact.
  if (/^[A-Z][A-Z0-9]/.test(text)) return text;
  return text.length > 0 ? text[0]!.toLowerCase() + text.slice(1) : text;
}

export function normaliseForComparison(text: string): string {
  return words(text).join(" ");
}

/** FNV-1a: a stable 32-bit seed from any string. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Mulberry32: a tiny seeded generator so "random" choices repeat exactly for the same input. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export function seededShuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/**
 * Token estimate used where no tokenizer is available (the offline engines): about four characters per token,
 * the usual rule of thumb for English text with GPT-style tokenizers. Never below one for non-empty text.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / 4));
}
