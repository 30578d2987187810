import type { SafeguardingCategory, Severity } from "./taxonomy.ts";

/**
 * Settling the category at four boundaries where the classifier, a word model, most often names the wrong one of two
 * neighbours for a high-severity disclosure. Each turns on something a word model reads badly and plain reading of
 * the message gets right: who was hurt, whether the harm is happening now, whose voice speaks of death, and when.
 * Each changes only a high-severity finding that is already one of its neighbours, so none can raise or hide a
 * concern, only name it better. One boundary of severity sits here too (`raiseForBodyInDanger`, at the end): it
 * raises an eating-disorder or substance finding already made, and finds none. All read normalised text ("me mum"
 * already read as "my mum").
 *
 * Leaving files out in turn (`npm run safeguarding:cv`): high-severity recall 86.2% → 87.8%, false positives
 * unchanged (the rules are written from the development data, so this figure flatters them a little; the held-out
 * set is the check).
 */

interface Finding {
  category: SafeguardingCategory;
  severity: Severity;
}

/** `earlierTurns` gives the caller's earlier turns, normalised; it is called only if a boundary needs them. */
export function settleBoundaries<F extends Finding>(finding: F, text: string, earlierTurns: () => string): F {
  if (finding.severity !== "high") return finding;
  let category = finding.category;
  category = byWhoWasHurt(category, text, earlierTurns) ?? category;
  category = byHarmUnderway(category, text) ?? category;
  category = byWhoseWordsOfDeath(category, text) ?? category;
  category = bySuicideTiming(category, text) ?? category;
  return category === finding.category ? finding : { ...finding, category };
}

// Who was hurt: abuse of the caller, or violence between adults at home.

/** Verbs of physical harm, by stem (any ending: "hit", "hitting", "slammin", "skelped"). */
const hurtVerb =
  "(?:hit|punch|kick|slap|beat|batter|smack|whack|shov|push|grab|strangl|chok|throttl|strik|struck|leather|thump|belt|burn|drag|yank|slam|bash|boot|bang|attack|hurt|stab|chuck|threw|throw|flung|fling|skelp|lamp|deck|clout|wallop|knock|pinn|broke|break|split|twist|laid into|lays into|lay into|laying into|layin into|(?:lay|laid|layin|put|puttin)[a-z]* hands on)[a-z]*";
/** An adult at home; "ma" only after "my" (alone it is often "my" itself). */
const adultRelative =
  "(?:(?:my|me|our) (?:ma|mas)|(?:my |me |our )?(?:mum|mam|mom|mother|mummy|mammy|nan|nana|nanna|gran|granny|grandma|aunty|auntie|aunt|amma|ammi|ammu|mama)s?|her)";
const writerBody =
  "(?:me|us|my (?:face|arm|arms|head|neck|fingers|finger|back|leg|legs|hand|hands|nose|tooth|teeth|ribs|rib|eye|eyes|eyebrow|hair|wrist|wrists|throat|stomach|chest|ear|lip|mouth|shoulder|skin|body))";
/** The verb and who it landed on: "hit me", "threw a plate at my head". */
const onto = (victim: string) => `${hurtVerb} (?:(?:[a-z]+ ){0,3}(?:at|on|into|onto) |[a-z]+ )?${victim}\\b`;
const writerHurt = new RegExp(
  `\\b(?:${onto(writerBody)}|${onto(adultRelative)} and (?:me|us)\\b|(?:me|us) and (?:my |me )?(?:mum|mam|ma)s? (?:both )?get it\\b|i (?:get|got|was|am|been|have been|keep getting) (?:[a-z]+ )?(?:hit|punched|kicked|slapped|beaten|battered|smacked|hurt|strangled|choked|belted|leathered|burnt|burned|thrown)\\b|(?:gets|got|getting) handy with (?:me|us)\\b|(?:scared|afraid|terrified|frightened|bricking it) (?:to|of) (?:go|going|gan|gannin) (?:home|hame|hyem)\\b)`,
);
const adultHurt = new RegExp(
  `\\b(?:${onto(adultRelative)}(?! (?:hair|phone))|(?:had|has|got) ${adultRelative} by the (?:throat|neck|hair)|put ${adultRelative} (?:head|face)|(?:mum|mam|mom|mother|ma|nan|gran|aunty|auntie|she)s? (?:has |got |had |has got |is covered in |with )?(?:a |another |more |new )?(?:black eye|bruise|bruises|marks|broken|split lip|arm is in a sling))`,
);
/**
 * People a message names, to find who did it. Someone else's partner ("mum's boyfriend", "her new fella") is tried
 * first, so it is not read as the caller's own.
 */
const personNamed =
  /\b(?:(?<other>(?:(?:mum|mam|mom|mother|mama|maw|dad|da|nan|gran|sister|brother|aunt|auntie|aunty)s?|mas|her|his)(?: new| drunk)? (?:bf|gf|boyfriend|girlfriend|partner|fella|man|husband|wife))|(?<partner>(?<!\b(?:a|about|from|with|of|for) (?:(?:my|me|ma|your) )?)(?:(?:my|me|ma|your) )?(?:bf|gf|boyfriend|girlfriend|fiance|fiancee)s?|(?:my|me|ma) (?:partner|fella|man|girl|lad|ex|husband|wife)s?|the (?:lad|boy|guy|girl|man) i am (?:seeing|with|going out with|talking to))|(?<carer>(?:mum|mam|mom|mother|mama|maw|dad|da|father|step[a-z]*|nan|gran|grandad|grandpa|uncle|aunt|auntie|aunty|carer|foster[a-z]*|cousin|brother|sister|teacher|coach|parent)s?))\b/g;

/**
 * "my mum's partner hits me" is abuse, "my dad hits my mum" domestic abuse, and a caller hurt by their own boyfriend
 * or girlfriend is domestic abuse too. When the caller was hurt as well as an adult, abuse comes first by precedence.
 */
function byWhoWasHurt(
  category: SafeguardingCategory,
  text: string,
  earlierTurns: () => string,
): SafeguardingCategory | null {
  if (category !== "abuse_neglect" && category !== "domestic_abuse") return null;
  const callerHurt = unlessDenied(writerHurt.exec(text), text);
  const adultWasHurt = adultHurt.test(text);
  if (callerHurt === null && !adultWasHurt) return null;
  if (callerHurt === null) return "domestic_abuse";
  return hurtByOwnPartner(text, callerHurt, earlierTurns) ? "domestic_abuse" : "abuse_neglect";
}

/** "he never hit me", "nobody has ever hurt me": a denial just before it means the caller was not hurt. */
const denialBefore =
  /\b(?:never|not|dont|do not|does not|doesnt|did not|didnt|nobody has ever|no one has ever|nobody ever)(?: [a-z]+)?\s*$/;

function unlessDenied(harm: RegExpExecArray | null, text: string): RegExpExecArray | null {
  if (harm === null) return null;
  return denialBefore.test(text.slice(Math.max(0, harm.index - 30), harm.index)) ? null : harm;
}

/**
 * Whether whoever hurt the caller is their own partner: the person after "by" in "i got hit by …", else the last
 * person named up to the harm, in this message or else in the earlier turns ("my bf is 17" … "he grabbed my neck").
 */
function hurtByOwnPartner(text: string, harm: RegExpExecArray, earlierTurns: () => string): boolean {
  const end = harm.index + harm[0].length;
  const agent = /^ by ((?:[a-z]+ ){0,3}[a-z]+)/.exec(text.slice(end))?.[1] ?? "";
  const named =
    lastPersonNamed(agent) ?? lastPersonNamed(text.slice(0, end)) ?? lastPersonNamed(earlierTurns());
  return named?.groups?.["partner"] !== undefined;
}

function lastPersonNamed(span: string): RegExpExecArray | undefined {
  let last: RegExpExecArray | undefined;
  for (const match of span.matchAll(personNamed)) last = match;
  return last;
}

// Whether the harm is happening now: immediate danger, first by precedence.

/**
 * Harm under way as the caller writes: someone on the stairs or at the door, the caller hiding or typing from
 * hiding. Not "tonight" or "I don't want to go home" (being afraid to go home is abuse at high severity), which
 * the development data labels by what is feared.
 */
const harmUnderway =
  /\b(?:right now|as we speak|on (?:his|her|their) way|coming up the stairs|coming up|coming back up|coming for me (?:now|right now)|(?:is|s|are) (?:on the stairs|outside (?:my|the) (?:door|room|window)|at (?:the|my) door|banging on|kicking (?:my|the) door|trying to (?:get in|break)|breaking (?:the|my) door|battering (?:the|my) door)|(?:i am|im) (?:hiding|trapped|typing (?:this )?(?:under|from|in|with))|hiding (?:in|under|behind) (?:the|my|a)|not finished)\b/;
const mayBeUnderway: ReadonlySet<SafeguardingCategory> = new Set([
  "abuse_neglect",
  "serious_violence",
  "domestic_abuse",
]);

function byHarmUnderway(category: SafeguardingCategory, text: string): SafeguardingCategory | null {
  return mayBeUnderway.has(category) && harmUnderway.test(text) ? "immediate_danger" : null;
}

// Whose voice speaks of death: being told to kill yourself is bullying; agreeing is thoughts of suicide.

/** Others telling the caller to die: "they keep saying i should kill myself", "voted me most likely to kms". */
const toldToDie =
  /\b(?:say|says|saying|said|sey|sed|tell|tells|telling|told|messag[a-z]*|dm[a-z]*|post[a-z]*|vot[a-z]*|comment[a-z]*|sent|sends|sending|wrote|writ[a-z]*)\b(?: [a-z]+){0,7}? (?:me|i|my|us) (?:[a-z]+ ){0,4}?(?:kill (?:myself|meself|mysel|yourself|urself|herself|himself)|kys|kms|unalive|(?:should|shud|to) (?:die|dye|end it|hang|jump)|do it(?: then)?|better (?:off )?without me|better if i (?:was|were) dead|better if i killed|do everyone a favour|nobody would (?:care|miss))\b|\b(?:say|says|saying|said|sey|sed|tell|telling|post[a-z]*|comment[a-z]*) (?:qq )?(?:kys|kms|kill (?:yourself|urself))\b/;
/** The voice telling them is the caller's own mind, not other people. */
const innerVoice =
  /\b(?:brain|head|mind|voice|voices|thoughts)s? (?:keeps |keep |is |are |s )?(?:telling|tells|saying|says)\b/;
/** The caller's own thoughts joining theirs: "and honestly i am starting to think they are right", "i might". */
const ownAgreement =
  /\b(?:maybe i will|i might|i kind of want|i kinda want|i sort of want|(?:they|theyre|they are) (?:are |might be |may be )?(?:right|correct)|started to believe|starting to believe|been agreeing|agree with them|i (?:want|wanna) to (?:die|do it|end it)|i am (?:going to|gonna) do it|hurt myself|hurt meself|cut myself|cut my|cutting|reading about how|looking up how|went up on|(?:think|thought|thinking) about (?:it|how|doing|actually|killing|ending)|started thinking|easier if i did|i will\b(?! not))/;

function byWhoseWordsOfDeath(category: SafeguardingCategory, text: string): SafeguardingCategory | null {
  if (category !== "bullying" && category !== "self_harm_suicide") return null;
  if (!toldToDie.test(text) || innerVoice.test(text)) return null;
  // Their words quoted ("posts qq i want to die qq") are not the caller's.
  const ownWords = text.replace(/\bqq\b.*?\bqq\b/g, " ");
  return ownAgreement.test(ownWords) ? "self_harm_suicide" : "bullying";
}

// When: thoughts of suicide are self-harm; an overdose taken, bleeding that will not stop, or a deadline within hours
// is immediate danger, first by precedence.

/** Harm already done and still acting: "i took 30 of something", "it is not stopping", "i need a hospital". */
const harmTakingEffect =
  /\b(?:i (?:have |just |already )?(?:took|taken|swallowed|necked|downed) (?:[a-z0-9]+ ){0,4}(?:pills|tablets|paracetamol|overdose|them|something|too many|on purpose)|(?:it is|its|it) (?:not stopping|will not stop|wont stop)|can not make it stop|cant make it stop|need (?:a |the )?(?:hospital|ambulance)|feel (?:really )?faint|(?:tied|hung) the (?:thing|rope|belt))\b/;
/** A deadline within hours: "before morning", "before they get home", "it will be done by the morning". */
const deadlineWithinHours =
  /\b(?:before (?:the )?morning|by (?:the )?morning|till morning|before (?:they|mum|dad|everyone) (?:get|gets|come|comes) (?:home|back)|before [0-9]+|this evening|the neet|2nite)\b/;
/** The caller says plainly it is not now: "not today", "not gonna do anything tonight", "not sending them yet". */
const notNow =
  /\bnot (?:today|tonight|right now|yet|like doing it today|going to do (?:anything|it)|gonna do (?:anything|nothing|nuttin|it)|sending them yet)\b/;
const pastAndOver =
  /\b(?:home now|ended up in|ago|weeks back|months back|last (?:week|month|year|night|nite)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/;
/** Words of suicide or self-harm, so an immediate danger of another kind (someone at the door) is left alone. */
const ownDeathOrHarm =
  /\b(?:die|dying|dead|alive|living|kill myself|end it|end my life|suicide|suicidal|cut|cutting|hurt myself|goodbye|letters?|note|be here|wake up)\b/;

function bySuicideTiming(category: SafeguardingCategory, text: string): SafeguardingCategory | null {
  if (category === "self_harm_suicide") {
    if (notNow.test(text)) return null;
    const takingEffect = harmTakingEffect.test(text) && !pastAndOver.test(text);
    return takingEffect || deadlineWithinHours.test(text) ? "immediate_danger" : null;
  }
  // Never back from an overdose taken or bleeding now, whatever else is said ("not yet feeling anything").
  const harmIsDone = harmTakingEffect.test(text);
  if (category === "immediate_danger" && ownDeathOrHarm.test(text) && notNow.test(text) && !harmIsDone)
    return "self_harm_suicide";
  return null;
}

// The body in danger: the line between medium and high for eating disorders and substance misuse.

/** Signs the body is failing now: fainting, blue lips, a racing heart, not breathing properly, confusion. */
const bodyFailing =
  /\b(?:faint(?:ed|ing|s)?|faynt(?:ed|in|ing)?|pass(?:ed|ing|es)? out|black(?:ed|ing)? out|collaps(?:e|ed|ing)|keel(?:ed|ing)? over|(?:vision|eyes?|sight) (?:keeps? |kept )?(?:go|goes|going|went|gone) (?:grey|gray|black|dark|blurry|fuzzy)|(?:lips|fingers|hands|face) (?:went|are|were|turned|turning|go|going|gone|is|was) (?:blue|purple|grey)|(?:cannot|can not|struggling to|hard to) (?:breathe|breath|get a breath)|chest (?:pain|is tight|hurts|is hurting|going mad)|heart (?:is |keeps |has been |was )?(?:racing|pounding|thumping|hammering|going mad|going crazy|flutter[a-z]*|skipping|beating (?:really |so )?(?:fast|hard))|(?:sick|vomit[a-z]*|throwing up|threw up) blood|seizure|fitting|(?:cannot|can not) (?:stay awake|wake up|stand up)|(?:forgetting|forget|do not know) where i am)\b/;
/** Days without food: "have not eaten in three days", "nothing for 6 days", "not eaten since the weekend". */
const daysWithoutFood =
  /\b(?:(?:not|never|nothing|no food|hardly|barely|without)(?: [a-z]+){0,4} (?:in|for|since|over|all) (?:(?:the )?(?:past |last )?(?:\d+|two|three|four|five|six|seven|several|a few|few) days|a week|(?:the )?(?:weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|last week))|(?:\d+|two|three|four|five|six|seven|several) days (?:without|with no|of no|not) (?:food|eating|eaten|anything)|day (?:\d+|three|four|five|six|seven) (?:of|without) (?:not eating|no food|fasting|water only))\b/;

/**
 * The taxonomy puts eating disorders and substance misuse at high once the body is in danger (fainting, days
 * without food, feeling very unwell after taking something). A word model learns the behaviour ("i hide my food")
 * and names the category, but weighs the body's danger lightly; this reads it. Only a medium or low finding already
 * in one of the two categories moves, so it can raise a concern's severity but never find one. Leaving files out
 * in turn (42 files): high-severity recall 88.5% → 88.6%, false positives and medium disclosures stopped as high
 * unchanged.
 */
export function raiseForBodyInDanger<F extends Finding>(finding: F, text: string): F {
  if (finding.severity === "high") return finding;
  const inDanger =
    (finding.category === "eating_disorder" && (bodyFailing.test(text) || daysWithoutFood.test(text))) ||
    (finding.category === "substance_misuse" && bodyFailing.test(text));
  return inDanger ? { ...finding, severity: "high" } : finding;
}
