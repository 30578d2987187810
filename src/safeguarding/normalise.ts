/**
 * Turns what a teenager types into one predictable form so the detection rules can stay readable:
 * lower case, plain letters, contractions and text-speak expanded, obvious misspellings of the words that
 * matter corrected, and sentence ends kept as " . " so rules can stay inside one sentence.
 */

// Letters from other scripts that look like Latin ones are a cheap way to slip past keyword filters.
const lookAlikeLetters: Record<string, string> = {
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  і: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  ո: "n",
  ı: "i",
  ο: "o",
  α: "a",
  ε: "e",
  ι: "i",
  ν: "v",
  τ: "t",
  κ: "k",
  ρ: "p",
  υ: "u",
  χ: "x",
};

// Digits and symbols used as letters ("k1ll", "d!e", "$uicide"), applied only inside words that also contain letters.
const leetLetters: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
  "!": "i",
};

const contractions: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(i)m\b/g, "i am"],
  [/\bi'm\b/g, "i am"],
  [/\bi've\b|\bive\b/g, "i have"],
  [/\bi'll\b/g, "i will"],
  [/\bi'd\b/g, "i would"],
  [/\bcan'?t\b|\bcannot\b/g, "can not"],
  [/\bwon'?t\b/g, "will not"],
  [/\b(do|does|did|is|are|was|were|have|has|had|would|should|could|must|need)n'?t\b/g, "$1 not"],
  [/\b(he|she|it|that|what|who|there|where)'s\b/g, "$1 is"],
  [/\b(you|we|they)'re\b/g, "$1 are"],
  [/\b(you|we|they)'ve\b/g, "$1 have"],
  [/\b(you|we|they|he|she)'ll\b/g, "$1 will"],
  [/\b(you|we|they|he|she)'d\b/g, "$1 would"],
];

const textSpeak: Record<string, string> = {
  u: "you",
  ur: "your",
  ya: "you",
  r: "are",
  wanna: "want to",
  gonna: "going to",
  gotta: "got to",
  tryna: "trying to",
  kinda: "kind of",
  dunno: "do not know",
  idk: "i do not know",
  idc: "i do not care",
  ngl: "not going to lie",
  tbh: "to be honest",
  rn: "right now",
  atm: "at the moment",
  tn: "tonight",
  tonite: "tonight",
  "2nite": "tonight",
  "2night": "tonight",
  "2day": "today",
  "2moro": "tomorrow",
  tmrw: "tomorrow",
  tmr: "tomorrow",
  pls: "please",
  plz: "please",
  bc: "because",
  cuz: "because",
  coz: "because",
  cos: "because",
  bcos: "because",
  bcoz: "because",
  ppl: "people",
  sum1: "someone",
  some1: "someone",
  no1: "no one",
  any1: "anyone",
  every1: "everyone",
  evry1: "everyone",
  wiv: "with",
  dis: "this",
  dat: "that",
  m8: "mate",
  b4: "before",
  wud: "would",
  shud: "should",
  cud: "could",
  hv: "have",
  hav: "have",
  abt: "about",
  bout: "about",
  thru: "through",
  kms: "kill myself",
  kys: "kill yourself",
  unalive: "kill",
  unalived: "killed",
  unaliving: "killing",
  selfharm: "self harm",
  selfharming: "self harming",
  od: "overdose",
  oding: "overdosing",
  bf: "boyfriend",
  gf: "girlfriend",
  bff: "best friend",
  mam: "mum",
  mom: "mum",
  mommy: "mum",
  mummy: "mum",
  stepdad: "stepdad",
  stepmum: "stepmum",
  snap: "snapchat",
  insta: "instagram",
  nudez: "nudes",
  noods: "nudes",
  noodz: "nudes",
  nudies: "nudes",
  pix: "pics",
  luv: "love",
  myslef: "myself",
  meself: "myself",
  thats: "that is",
  theres: "there is",
  theyre: "they are",
  youre: "you are",
  hes: "he is",
  whats: "what is",
  shes: "she is",
  wen: "when",
  wat: "what",
  wot: "what",
  nuffin: "nothing",
  nothin: "nothing",
  sumthin: "something",
  smth: "something",
  sth: "something",
  noone: "no one",
  yr: "year",
  yrs: "years",
  hrs: "hours",
  mins: "minutes",
};

// "cuttin", "harmin": only for verbs the rules care about, so ordinary words ending in "in" are untouched.
const droppedGVerbs = new Set([
  "cut",
  "harm",
  "kill",
  "hurt",
  "dy",
  "smok",
  "drink",
  "bully",
  "starv",
  "purg",
  "sell",
  "shott",
  "carry",
  "hold",
  "threaten",
  "touch",
  "hitt",
  "beat",
  "punch",
  "kick",
  "slapp",
  "chok",
  "vap",
  "tak",
  "do",
  "go",
  "think",
  "feel",
  "cry",
  "burn",
  "scratch",
  "throw",
  "mov",
  "runn",
  "groom",
  "send",
  "end",
  "be",
  "los",
  "liv",
  "eat",
  "skipp",
  "purg",
  "fight",
  "shout",
  "scream",
  "follow",
  "chas",
  "stalk",
  "lov",
  "want",
  "tell",
  "mak",
]);

/** Distinctive words that are often misspelt; close misspellings of these are corrected. */
const correctableWords = [
  "suicide",
  "suicidal",
  "overdose",
  "overdosed",
  "anorexic",
  "anorexia",
  "bulimia",
  "bulimic",
  "laxatives",
  "depressed",
  "depression",
  "worthless",
  "hopeless",
  "radicalised",
  "radicalized",
  "extremist",
  "extremists",
  "grooming",
  "groomed",
  "blackmail",
  "blackmailing",
  "blackmailed",
  "strangled",
  "strangling",
  "mutilation",
  "circumcised",
  "circumcision",
  "cocaine",
  "ketamine",
  "cannabis",
  "addicted",
  "molested",
  "assaulted",
  "trafficked",
  "myself",
  "bullied",
  "bullying",
  "stabbed",
  "stabbing",
  "threatening",
  "threatened",
  "secret",
  "uncomfortable",
  "marriage",
  "married",
  "pointless",
  "nobody",
  "everyone",
  "disappear",
  "abusive",
  "terrorist",
];
// Real words one letter away from a correctable word; they must stay as written.
const protectedWords = new Set([
  ...correctableWords,
  "bullies",
  "secrets",
  "threatens",
  "extremism",
  "depressing",
  "strangers",
  "stranger",
  "homeless",
  "terrorism",
  "married",
  "marries",
]);

/** Words worth restoring when letters have been stretched ("diiiie", "killll"). */
const stretchTargets = new Set([
  ...correctableWords,
  "die",
  "dead",
  "kill",
  "hurt",
  "cut",
  "help",
  "please",
  "scared",
  "sad",
  "alone",
  "hate",
  "need",
  "tired",
  "done",
  "food",
  "eat",
  "sick",
  "hit",
  "hits",
  "touch",
  "secret",
  "tonight",
  "now",
  "want",
  "feel",
  "so",
]);

export interface NormalisedText {
  /** Lower case, expanded and corrected, sentences separated by " . ". */
  text: string;
  /** The same text as words, without the sentence markers. */
  words: string[];
}

export function normalise(raw: string): NormalisedText {
  let text = raw.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  text = text.replace(/[\u200b-\u200f\u2060\ufeff\u00ad]/g, "");
  text = text.toLowerCase();
  text = text.replace(/[аеорсухіјѕԁոıοαειντκρυχ]/g, (letter) => lookAlikeLetters[letter] ?? letter);
  text = text.replace(/[\u2018\u2019\u02bc`´]/g, "'").replace(/[\u201c\u201d]/g, '"');
  // Double quotes survive as "qq" markers so the detector can tell a quoted line from the writer's own words.
  text = text.replace(/"/g, " qq ");
  text = undoLeetSpeak(text);
  text = joinSpacedLetters(text);
  for (const [pattern, replacement] of contractions) text = text.replace(pattern, replacement);
  text = text.replace(/'/g, "");
  // Sentence ends become a standalone "." token; every other symbol becomes a space.
  text = text
    .replace(/(\d)\.(\d)/g, "$1$2")
    .replace(/[.!?;\n\r]+/g, " . ")
    .replace(/[^a-z0-9. ]+/g, " ");
  const words: string[] = [];
  const tokens: string[] = [];
  for (const token of text.split(/\s+/)) {
    if (token === "") continue;
    if (token === ".") {
      if (tokens.length > 0 && tokens[tokens.length - 1] !== ".") tokens.push(".");
      continue;
    }
    for (const word of expandWord(token).split(" ")) {
      tokens.push(word);
      words.push(word);
    }
  }
  return { text: applyPhraseFixes(tokens.join(" ")), words };
}

// Ordinals, times, units, paper sizes and the like keep their digits.
const keptAlphanumerics =
  /^(?:\d+(?:st|nd|rd|th|am|pm|s|x|y|k|m|g|kg|cm|mm|km|ml|mg|hz|d)|[a-z]\d{2,}|a[345]|co2|h2o|mp[34]|y2k|[345]g|covid19|[a-z]\d[a-z]?\d*[a-z]\d)$/;

function undoLeetSpeak(text: string): string {
  return text.replace(/[a-z0-9@$!]*[a-z0-9@$]/g, (word) => {
    if (!/[a-z]/.test(word) || keptAlphanumerics.test(word)) return word;
    if (Object.hasOwn(textSpeak, word)) return word;
    return word.replace(/[013457@$!]/g, (symbol) => leetLetters[symbol] ?? symbol);
  });
}

/** "k i l l m y s e l f" and "s.u.i.c.i.d.e" hide words letter by letter. */
function joinSpacedLetters(text: string): string {
  return text.replace(/\b(?:[a-z][ .\-_*]){2,}[a-z]\b/g, (run) => segmentWords(run.replace(/[ .\-_*]/g, "")));
}

const segmentationWords = new Set([
  ...stretchTargets,
  "i",
  "a",
  "am",
  "me",
  "my",
  "to",
  "it",
  "all",
  "end",
  "life",
  "be",
  "not",
  "alive",
  "going",
  "self",
  "him",
  "her",
  "you",
  "yourself",
  "want",
  "wanna",
  "gonna",
  "myself",
  "kms",
  "kys",
  "sh",
]);

/** Splits joined letters back into words when they are made only of words we know; otherwise keeps them joined. */
function segmentWords(joined: string): string {
  const words: string[] = [];
  let position = 0;
  while (position < joined.length) {
    let end = joined.length;
    while (end > position && !segmentationWords.has(joined.slice(position, end))) end -= 1;
    if (end === position) return joined;
    words.push(joined.slice(position, end));
    position = end;
  }
  return words.join(" ");
}

function expandWord(token: string): string {
  let word = token.replace(/([a-z])\1{2,}/g, "$1$1");
  if (!stretchTargets.has(word) && /([a-z])\1/.test(word)) word = shrinkDoubledLetters(word);
  // Own keys only: "constructor" or "toString" in a message must not find Object.prototype.
  if (Object.hasOwn(textSpeak, word)) return textSpeak[word]!;
  if (word.endsWith("in") && droppedGVerbs.has(word.slice(0, -2).replace(/(.)\1$/, "$1"))) return `${word}g`;
  if (word.endsWith("in") && droppedGVerbs.has(word.slice(0, -2))) return `${word}g`;
  return correctSpelling(word);
}

function shrinkDoubledLetters(word: string): string {
  for (let index = 0; index < word.length - 1; index += 1) {
    if (word[index] === word[index + 1]) {
      const shorter = word.slice(0, index) + word.slice(index + 1);
      if (stretchTargets.has(shorter)) return shorter;
    }
  }
  return word;
}

// Corrections are pure, so remember them; the cap keeps memory bounded on a long-running server.
const correctionCache = new Map<string, string>();
const correctionCacheLimit = 20_000;

function correctSpelling(word: string): string {
  if (word.length < 6 || protectedWords.has(word) || /\d/.test(word)) return word;
  const cached = correctionCache.get(word);
  if (cached !== undefined) return cached;
  let corrected = word;
  for (const target of correctableWords) {
    if (target[0] !== word[0] || Math.abs(target.length - word.length) > 2) continue;
    const allowed = target.length >= 10 ? 2 : 1;
    if (editDistanceWithin(word, target, allowed)) {
      corrected = target;
      break;
    }
  }
  if (correctionCache.size >= correctionCacheLimit) correctionCache.clear();
  correctionCache.set(word, corrected);
  return corrected;
}

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), stopping early once over `limit`. */
export function editDistanceWithin(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? Infinity) + 1,
        (current[j - 1] ?? Infinity) + 1,
        (previous[j - 1] ?? Infinity) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (previousPrevious[j - 2] ?? Infinity) + 1);
      }
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return false;
    previousPrevious = previous;
    previous = current;
  }
  return (previous[b.length] ?? Infinity) <= limit;
}

/** Multi-word spellings that the word-by-word pass cannot see. */
function applyPhraseFixes(text: string): string {
  return (
    text
      .replace(/\bmy self\b/g, "myself")
      .replace(/\bself harm(s|ed|ing)?\b/g, "self harm$1")
      .replace(/\bstep (dad|mum|father|mother|brother|sister)\b/g, "step$1")
      .replace(/\bs h\b/g, "sh")
      // "sh" means self-harm only in these positions; elsewhere it is "shh".
      .replace(/\b(i|to|on|about|my|of|the|relapsed|relapse|started|stop|do|did)\s+sh\b/g, "$1 self harm")
      .replace(/\bsh\s+(again|scars?|urges?|cuts?|relapse|wounds?|marks)\b/g, "self harm $1")
      .replace(/\b(want|going|planning|trying) to (dye|die) (my|her|his) hair\b/g, "$1 to dye $3 hair")
  );
}
