import { stemmer } from "stemmer";

/**
 * Text analysis shared by catalogue search and the aligner, so that a word typed into search and the same
 * word in a lesson plan reduce to the same index term.
 */

const wordPattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Function words that carry no subject meaning in either a search box or a lesson plan. */
export const stopWords: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below " +
    "between both but by can could did do does doing down during each etc few for from further had has have " +
    "having he her here hers herself him himself his how i if in into is it its itself just me more most my " +
    "myself no nor not now of off on once only or other our ours ourselves out over own same she should so " +
    "some such than that the their theirs them themselves then there these they this those through to too " +
    "under until up upon us very via was we were what when where which while who whom why will with within " +
    "without would you your yours yourself yourselves eg ie vs versus"
  ).split(" "),
);

/** American spellings teachers paste from online resources, folded into the British -ise forms. */
function foldSpelling(word: string): string {
  return word.replace(/iz(e|es|ed|ing|ation|ations|er|ers)$/, "is$1").replace(/yz(e|es|ed|ing)$/, "ys$1");
}

/** Lower-cased words of a text in order, possessives dropped, American -ize spellings folded. */
export function words(text: string): string[] {
  const found = text.toLowerCase().match(wordPattern) ?? [];
  return found.map((word) => foldSpelling(word.replace(/['’]s$/, "").replace(/['’]/g, "")));
}

const stemCache = new Map<string, string>();
const stemCacheLimit = 50_000;

/** Porter stem, memoised because the same school vocabulary recurs in every request. */
export function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  // Short words and words with digits (CO2, 3D, y2) are left alone: the stemmer mangles them.
  let stemmed = word.length <= 3 || /\d/.test(word) ? word : stemmer(word);
  // Porter leaves "biologi" beside "biolog" (biology, biological) and "energi" beside "energ"; fold them.
  if (stemmed.length > 4 && stemmed.endsWith("i")) stemmed = stemmed.slice(0, -1);
  // British -ise verbs keep the noun's "-sis" ("photosynthesising" → "photosynthesis"); fold onto the noun's stem.
  else if (stemmed.length > 6 && /[eyo]sis$/.test(stemmed)) stemmed = stemmed.slice(0, -2);
  if (stemCache.size < stemCacheLimit) stemCache.set(word, stemmed);
  return stemmed;
}

/** Stems of the meaningful words of a text, in order. */
export function stems(text: string, ignore: ReadonlySet<string> = stopWords): string[] {
  const result: string[] = [];
  for (const word of words(text)) {
    if (ignore.has(word)) continue;
    result.push(stem(word));
  }
  return result;
}
