import type { SafeguardingCategory, Severity } from "./taxonomy.ts";

/**
 * The second layer of detection: concepts that must all appear in one sentence, in any order and wording.
 * Phrase rules (detection-rules.ts) catch the ways young people usually say things; concepts catch the many
 * wordings nobody wrote down ("swallowed a load of pills", "offered me money for pics") by asking for the
 * ingredients of a disclosure instead of the phrase: an act, its object, and a sign that it is real and current.
 *
 * Concepts run over normalised text, one sentence at a time, only in messages without academic framing, and (unless
 * `anyPerson`) only in sentences that mention the writer.
 */
export interface ConceptRule {
  id: string;
  category: SafeguardingCategory;
  severity: Severity;
  /** Every group must match somewhere in the sentence. */
  all: readonly RegExp[];
  /** A sentence matching this is something else (a joke, another category's rule, a harmless use). */
  unless?: RegExp;
  /** Severity when the sentence is clearly about the past only. */
  severityWhenPast?: Severity;
  /** Reported about someone else ("my friend …"): the rule does not need the writer in the sentence. */
  anyPerson?: boolean;
}

const words = (...alternatives: string[]) => new RegExp(String.raw`\b(?:${alternatives.join("|")})\b`);

// Shared vocabularies.
const quantity = words(
  String.raw`all(?: of)?(?: the| my)?`,
  "whole",
  "a load",
  "loads",
  "a lot",
  "lots",
  "a bunch",
  "a handful",
  "handfuls",
  String.raw`(?:half )?a (?:bottle|packet|box|pack|strip|tub)`,
  String.raw`\d+`,
  "ten|twenty|thirty|forty|fifty|fifteen|twelve|loads of",
);
const medicine =
  /\b(?:pills?|tablets?|paracetamol|ibuprofen|aspirin|meds|medication|medicine|antidepressants?|sleeping (?:pills|tablets)|painkillers?|bleach|anti freeze|antifreeze|weed killer|poison)\b/;
const ingestedPast = words(
  "taken",
  "took",
  "swallowed",
  "swallow",
  "drank",
  "drunk",
  "downed",
  "necked",
  "had",
  "overdosed",
  "od",
);
const now = words(
  "right now",
  "now",
  "at the moment",
  "atm",
  "currently",
  "tonight",
  "outside",
  "waiting for me",
  "in the house",
  "downstairs",
  "at the door",
  "on my way",
  "hiding",
);
const carer = words(
  "dad|father|mum|mother|stepdad|stepmum|stepfather|stepmother|parents?|uncle|aunt|auntie|grandad|grandma|nan|gran|carer|foster (?:carer|mum|dad)|mums (?:boyfriend|partner)|dads (?:girlfriend|partner)|guardian",
);
const hurtsMe = words(
  String.raw`(?:grabbed|grabs|grab|hit|hits|hitting|punched|punches|punching|kicked|kicks|kicking|slapped|slaps|slapping|choked|chokes|strangled|strangles|shoved|shoves|pushed|pushes|beat|beats|beating|burned|burns|whacked|whacks|smacked|smacks|threw|throws|dragged|drags) (?:me|us|my (?:arms?|face|head|hair|neck|back|legs?|hands?|throat|body|stomach|ribs))`,
  String.raw`(?:hurts|hurt|hurting) (?:me|us)`,
  "by the throat",
  "by my hair",
  "with a belt",
);
const injuries = words("bruises|bruised|bruise|marks|black eye|cuts|welts|burns|swollen|bleeding");
const weapon = words(
  "knife|knives|blade|blades|machete|shank|gun|guns|hammer|bat|axe|screwdriver|acid|nank|strap",
);
const violentAct = words(
  "stab|stabbing|shoot|shooting|shank|slash|kill|murder|attack|batter|jump|hurt|make (?:him|her|them) pay|blow up|bomb",
);
const intendTo = words(
  "going to|gonna|will|plan to|planning to|planning|plan|help (?:me )?plan|want to|wanna|about to|bring|bringing|take|taking|threatening to|saying they are going to|say they will|said they will",
);
const partner = words("boyfriend|girlfriend|partner|bf|gf|husband|wife|ex");
const sexualImages = words(
  "pics?|pictures?|photos?|nudes?|naked|nude|videos?|selfies?|on cam|on camera|top off|clothes off|undress|underwear|bikini|private parts|body",
);
const secrecy = words(
  "secret|(?:do not|not to|never|cannot|can not|not) tell|nobody (?:would|will) believe|no one (?:would|will) believe|between us|our little|delete (?:the|our) (?:messages|chats)",
);
const adultPerson = words(
  "man|guy|older|adult|coach|uncle|teacher|tutor|stepdad|neighbour|cousin|stranger|someone|he is \\d\\d|who says he|he|she|they",
);
const onlinePlace = words(
  "online|snapchat|snap|instagram|insta|discord|tiktok|whatsapp|roblox|fortnite|minecraft|xbox|playstation|gaming|game|app|met on|chat",
);
const coercion = words(
  "have to|had to|make me|made me|making me|forcing me|forced me|force me|owe|owed|debt|pay (?:it|them|him) back|or else|or they|if i do not|if i dont|will hurt|would hurt|hurt my|cannot say no|can not say no|could not say no|no choice|told me to|tell me to|telling me to|sends me|sending me|sent me",
);
const contraband = words(
  "packages?|parcels?|drugs|weed|stuff|a bag|bags|the bag|food|work|a phone|burner|sell|selling|shotting|run for|running for|trap|holding|hold stuff",
);
const goingAway = words(
  "another town|other towns|out of town|different town|another city|on the train|by train|far away|country|ot|a flat|places i do not know",
);

export const conceptRules: readonly ConceptRule[] = [
  // Immediate danger: something has been taken, someone is attacking now, or a plan is under way.
  {
    id: "concept-overdose-taken",
    category: "immediate_danger",
    severity: "high",
    all: [ingestedPast, quantity, medicine],
    unless: words("how many|what if someone|if someone|is it safe|safe dose|recommended dose|for a headache"),
  },
  {
    id: "concept-poison-drunk",
    category: "immediate_danger",
    severity: "high",
    all: [
      words("drank|drunk|swallowed|downed|took"),
      words("bleach|anti freeze|antifreeze|poison|weed killer|cleaning stuff"),
    ],
  },
  {
    id: "concept-attacked-now",
    category: "immediate_danger",
    severity: "high",
    all: [
      now,
      words(
        "trying to get in|breaking in|break in|kill (?:us|me)|hurt (?:us|me)|smashing|attacking|hitting (?:me|us|my mum)|chasing me|following me|has (?:got )?a knife|got a knife|with a knife|has a gun|waiting for me",
      ),
    ],
    unless: words("game|film|movie|dream|nightmare|story"),
  },
  {
    id: "concept-about-to-jump",
    category: "immediate_danger",
    severity: "high",
    all: [
      words("on the|at the|standing on|stood on|up on"),
      words("bridge|roof|ledge|edge|tracks|railway|cliff|platform"),
      words("jump|end it|going to|gonna|let go|fall"),
    ],
  },
  {
    id: "concept-bleeding-badly",
    category: "immediate_danger",
    severity: "high",
    all: [
      words("bleeding|blood"),
      words("will not stop|wont stop|cannot stop|can not stop|a lot|so much|loads|everywhere|too deep"),
    ],
    unless: words("nose ?bleed|period|nosebleed"),
  },
  {
    id: "concept-notes-and-means",
    category: "immediate_danger",
    severity: "high",
    all: [
      words("notes?|goodbye|letters?"),
      words("the rope|a rope|the pills|the tablets|the blade|tonight|the night|today|ready to go"),
    ],
    unless: words(
      "revision notes|class notes|lesson notes|notes on|notes for|study notes|my notes|the notes from|cue cards",
    ),
  },

  // Suicidal thoughts said indirectly.
  {
    id: "concept-no-reason-to-live",
    category: "self_harm_suicide",
    severity: "high",
    all: [
      words(
        "no reason|not see a reason|see no reason|any reason|no point|what is the point|whats the point|point in|no way out|way out",
      ),
      words(
        "living|live|alive|being here|being alive|go on|carry on|keep going|except dying|but dying|life|anymore|any more",
      ),
    ],
    unless: words("revision|revising|homework|this lesson|this subject|the exam|studying|school work"),
  },
  {
    id: "concept-not-exist",
    category: "self_harm_suicide",
    severity: "high",
    all: [
      words("wish|want|wanted|would rather|rather|could|just"),
      words(
        "not exist|stop existing|never existed|never been born|not been born|not wake up|never wake up|not be here|not be alive|be dead|be gone|disappear forever|not be around|fall asleep forever",
      ),
    ],
  },
  {
    id: "concept-better-off-gone",
    category: "self_harm_suicide",
    severity: "high",
    all: [
      words("better off|happier|easier"),
      words(
        "without me|if i was gone|if i were gone|if i was dead|if i were dead|if i was not here|if i were not here|if i died|when i am gone|with me gone",
      ),
    ],
  },
  {
    id: "concept-ending-it",
    category: "self_harm_suicide",
    severity: "high",
    all: [
      words("thinking about|think about|thought about|want to|going to|planning|keep|might"),
      words(
        "ending it|end it all|ending it all|end my life|ending my life|taking my life|take my own life|end things|ending things",
      ),
    ],
  },
  {
    id: "concept-ways-to-die",
    category: "self_harm_suicide",
    severity: "high",
    all: [
      words("easiest|quickest|painless|best|fastest|least painful|how to|ways? to"),
      words("die|kill myself|end my life|overdose|hang myself"),
    ],
    unless: words("character|cells|plants|bacteria|battery"),
  },
  {
    id: "concept-self-injury",
    category: "self_harm_suicide",
    severity: "high",
    severityWhenPast: "medium",
    all: [
      words(
        "cutting|cut|cuts|burn|burning|burnt|scratching|scratch|hitting|hit|punching|punch|banging|bang|carving|carve|biting|bite|hurting|hurt|harming|harm",
      ),
      words(
        "myself|my (?:arms?|wrists?|thighs?|legs?|skin|stomach|head|hands?|body)|my head against|head against the wall",
      ),
    ],
    unless: words(
      "cut myself a|cut myself some|hurt myself playing|hurt myself at|burnt myself cooking|burned myself cooking|on the oven|on the hob|by accident|accidentally|hit my head on|tripped|fell",
    ),
  },
  {
    id: "concept-friend-suicidal",
    category: "self_harm_suicide",
    severity: "medium",
    anyPerson: true,
    all: [
      words("my friend|my mate|my best friend|my sister|my brother|my cousin|she|he"),
      words(
        "going to kill (?:her|him)self|wants to die|kill (?:her|him)self|end (?:her|his) life|suicidal|self harming|cutting (?:her|him)self",
      ),
    ],
  },

  // Sexual exploitation and grooming: images, secrecy, gifts, meeting, pressure.
  {
    id: "concept-paid-for-images",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      words(
        "offered|offering|offers|give me|gave me|pay me|paid me|pays me|money|cash|gift cards?|vouchers?|robux|vbucks|buy me|buys me",
      ),
      sexualImages,
    ],
    unless: words("school photo|passport photo|photography club|photo competition|camera club"),
  },
  {
    id: "concept-images-threat",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      words("nudes|naked|nude|pics of me|photos of me|videos of me|my pics|my photos|intimate"),
      words(
        "send them|share them|post them|leak|show everyone|unless|or else|send more|to everyone|my parents|sextort",
      ),
    ],
  },
  {
    id: "concept-secret-touching",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      secrecy,
      adultPerson,
      words(
        "touch|touches|touched|touching|hugs?|kiss|kisses|kissed|special|sleep over|sleepover|in his room|in his car|my body|massage|cuddle|meet",
      ),
    ],
    unless: words("surprise|present|birthday|party|spoilers?|exam answers"),
  },
  {
    id: "concept-online-stranger-meet",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      onlinePlace,
      words("meet me|meet up|to meet|come and get me|pick me up|meeting him|meeting her|come over"),
      words("not (?:to )?tell|do not tell|secret|older|man|says he is|claims|adult|\\d\\d"),
    ],
  },
  {
    id: "concept-cam-undress",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      words("cam|camera|video call|facetime|live stream|stream|call"),
      words("top off|clothes off|undress|naked|show (?:him|them) my|in my underwear|take off"),
    ],
  },
  {
    id: "concept-age-gap-partner",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      words("boyfriend|girlfriend|dating|seeing|going out with|he|she"),
      words(
        "is (?:1[89]|[2-9]\\d)|age is (?:just )?a number|much older|years older|(?:1[89]|[2-9]\\d) and i am 1[0-5]",
      ),
    ],
    unless: words("my dad|my mum|my parents|my sister|my brother|teacher"),
  },
  {
    id: "concept-made-to-do-sexual",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      words(
        "made me|forced me|pressured me|pressuring me|make me|touched me|did stuff to me|did things to me",
      ),
      words(
        "do stuff|do things|did not want|didnt want|said no|sexual|touch|touched|things i did not want|stuff i did not want|without asking|asleep|drunk",
      ),
    ],
    unless: words("homework|revise|revision|eat|chores|tidy|clean|run|train|practise|practice|exercise"),
  },
  {
    id: "concept-unwanted-explicit",
    category: "sexual_exploitation_grooming",
    severity: "high",
    all: [
      words("sent me|sends me|sending me|showed me|shows me|keeps sending|keeps messaging|dm|dms"),
      words("private parts|his dick|his penis|his willy|naked|nudes?|explicit|porn|sexual"),
    ],
  },

  // Abuse and neglect by a parent or carer.
  {
    id: "concept-carer-hurts-me",
    category: "abuse_neglect",
    severity: "high",
    all: [carer, hurtsMe],
    unless: words("by accident|accidentally|playing|play fight|wrestling|tickle"),
  },
  {
    id: "concept-injuries-from-carer",
    category: "abuse_neglect",
    severity: "high",
    all: [injuries, carer, words("from|where|because|after|when")],
    unless: words("football|rugby|fell|trip|accident|netball|hockey|p e|pe"),
  },
  {
    id: "concept-locked-without-food",
    category: "abuse_neglect",
    severity: "high",
    all: [
      words("locks? me|locked me|shuts? me|shut me|kicks? me out|kicked me out|lock me out|locked me out"),
      words("without food|no food|all night|for days|in my room|outside|in the cold|shed|cupboard|garden"),
    ],
  },
  {
    id: "concept-neglect",
    category: "abuse_neglect",
    severity: "medium",
    all: [
      words(
        "hardly (?:ever )?any food|never any food|no food in the house|no food at home|nothing to eat|leave (?:me|us) alone for days|left (?:me|us) alone for days|alone for days|no heating|no electricity|nobody feeds|no one feeds|have to feed (?:myself|my brother|my sister)|sleeps all day|always drunk|passed out drunk",
      ),
      words("mum|dad|parents|carer|home|house|me|us|my"),
    ],
  },
  {
    id: "concept-degraded-by-carer",
    category: "abuse_neglect",
    severity: "medium",
    all: [
      carer,
      words("calls? me|called me|tells me i am|says i am|told me i am|screams? at me"),
      words(
        "useless|worthless|waste of space|mistake|stupid|pathetic|disgusting|should never have been born|ruined",
      ),
    ],
  },

  // Honour-based abuse: forced marriage, FGM, threats in the name of honour.
  {
    id: "concept-forced-marriage",
    category: "honour_based_abuse",
    severity: "high",
    all: [
      words("marry|marriage|married|wedding|husband|wife|engaged|rishta"),
      words(
        "have to|make me|making me|forcing|force me|forced|do not want|dont want|chose|choose for me|they chose|arranged for me|taking me abroad|take me abroad|taken my passport|took my passport|my passport|against my will|no choice|cousin",
      ),
    ],
    unless: words("in the play|romeo|juliet|henry viii|tudor|history|essay|character"),
  },
  {
    id: "concept-fgm",
    category: "honour_based_abuse",
    severity: "high",
    all: [
      words(
        "cutting done|get cut|be cut|have it done|get it done|the cutting|the procedure|circumcised|fgm|khatna|sunna|cut down there",
      ),
      words("back home|abroad|summer|holiday|visit|aunt|grandma|family|ceremony|when we go|going to"),
    ],
  },
  {
    id: "concept-honour-threat",
    category: "honour_based_abuse",
    severity: "high",
    all: [
      words("shame|dishonour|dishonours|dishonoured|honour|izzat|disgrace"),
      words(
        "hurt me|deal with me|kill me|punish me|beat me|threatened|threaten|send me away|disown|lock me|take me",
      ),
    ],
  },

  // Criminal exploitation: carrying, holding or selling for others under pressure or debt.
  {
    id: "concept-county-lines",
    category: "criminal_exploitation",
    severity: "high",
    all: [contraband, coercion],
    unless: words(
      "post office|amazon|parcel for my mum|homework|chores|revision|tidy|school bag|pe bag|gym bag|packed lunch|lunch|shopping|dinner|the dog|revise",
    ),
  },
  {
    id: "concept-sent-away-to-sell",
    category: "criminal_exploitation",
    severity: "high",
    all: [
      words("sending me|send me|sent me|go|going|take|taking|travel"),
      goingAway,
      words("sell|selling|packages?|drugs|deliver|drop|stuff|run|work|trap|shot"),
    ],
  },
  {
    id: "concept-groomed-by-gifts",
    category: "criminal_exploitation",
    severity: "high",
    all: [
      words("gave me|bought me|buys me|gives me"),
      words("trainers|money|phone|clothes|jacket|weed|cash"),
      words("owe|run for|work for|pay (?:it|him|them) back|have to|do jobs|do favours"),
    ],
  },

  // Serious violence: weapons carried, attacks planned, threats to stab or shoot.
  {
    id: "concept-carry-weapon",
    category: "serious_violence",
    severity: "high",
    all: [
      words("carry|carrying|bring|bringing|got|have|keep|keeping|taking|take"),
      weapon,
      words(
        "in my bag|on me|to school|in tomorrow|for protection|for after school|in case|because i got|since i got|for him|for them",
      ),
    ],
    unless: words(
      "food tech|cooking|kitchen|butter|knife skills|bridge hold|claw grip|cricket|baseball|rounders|tool kit|dt lesson",
    ),
  },
  {
    id: "concept-intent-to-attack",
    category: "serious_violence",
    severity: "high",
    all: [
      intendTo,
      violentAct,
      words(
        "him|her|them|people|someone|my school|the school|school|college|everyone|my teacher|that boy|that girl|this guy|he|she",
      ),
    ],
    unless: words(
      "game|fortnite|minecraft|roblox|call of duty|cod|essay|homework|this exam|this test|the test|it tonight|pizza|the process|make (?:him|her) pay for the|mosquito|spider|fly|wasp|zombies?|the boss|level|(?:murder|kill|hurt) me|(?:murder|kill|hurt) us",
    ),
  },
  {
    id: "concept-threatened-with-violence",
    category: "serious_violence",
    severity: "high",
    anyPerson: true,
    all: [
      words("they|group|gang|people|someone|boys|lads|he|she"),
      words("going to|gonna|saying they|say they|threatening to|threatened to|will|want to"),
      words("shoot|stab|kill|jump|slash|shank|merk"),
      words("me|my|cousin|brother|sister|us"),
    ],
    unless: words(
      "game|fortnite|call of duty|cod|roblox|minecraft|joke|joking|banter|kill (?:her|him|them)sel(?:f|ves)",
    ),
  },

  // Domestic abuse between adults at home, and in the caller's own relationship.
  {
    id: "concept-adult-violence-at-home",
    category: "domestic_abuse",
    severity: "high",
    all: [
      words("dad|stepdad|mum|stepmum|mums boyfriend|dads girlfriend|father|mother"),
      words(
        "pushed|hit|hits|slapped|slaps|punched|punches|kicked|kicks|strangled|choked|threw|beat|beats|shoved|up against the wall|by the throat|down the stairs|grabbed",
      ),
      words("my mum|my dad|my mother|my father|her|him|my stepmum|my stepdad|mum|dad"),
    ],
    unless: words(
      "hit me|hits me|slapped me|punched me|kicked me|pushed me|grabbed me|beat me|beats me|my friends? (?:dad|mum|stepdad|stepmum)",
    ),
  },
  {
    id: "concept-partner-violence",
    category: "domestic_abuse",
    severity: "high",
    all: [
      partner,
      words(
        "slapped me|slaps me|hit me|hits me|punched me|pushed me|shoved me|choked me|strangled me|grabbed me|hurts me|hurt me|threw (?:something|stuff|things) at me|kicked me",
      ),
    ],
  },
  {
    id: "concept-partner-control",
    category: "domestic_abuse",
    severity: "medium",
    all: [
      partner,
      words(
        "checks my phone|goes through my phone|tells me who|says who i can|will not let me|wont let me|controls|tracks my location|track my location|makes me share my location|gets angry if i|not allowed to see",
      ),
    ],
  },
  {
    id: "concept-police-at-home",
    category: "domestic_abuse",
    severity: "medium",
    all: [
      words("police|cops"),
      words("came round|come round|at our house|at the house|called"),
      words("fighting|fight|arguing|argument|rows?|screaming|parents|mum|dad"),
    ],
  },

  // Radicalisation: recruitment, intent, extremist hatred.
  {
    id: "concept-recruited",
    category: "radicalisation_extremism",
    severity: "high",
    all: [
      words(
        "join|joining|recruit|recruiter|recruiting|fight for|fighting for|teaching me|training me|train me|initiation",
      ),
      words(
        "race|our race|the cause|fighters|jihad|caliphate|white|holy war|the movement|our people|brotherhood|militia|nationalist|isis|the group|soldiers?",
      ),
    ],
    unless: words(
      "football|team|club|gym|band|choir|army cadets|cadets|scouts|the navy|the army|raf|history|essay",
    ),
  },
  {
    id: "concept-bomb-making",
    category: "radicalisation_extremism",
    severity: "high",
    all: [
      words("make|making|build|building|teaching me|how to"),
      words("a bomb|bombs|explosives|pipe bomb|ied|a device"),
    ],
    unless: words("bath bomb|bath bombs|seed bomb|photo bomb|yarn bomb"),
  },
  {
    id: "concept-eliminationist-hatred",
    category: "radicalisation_extremism",
    severity: "medium",
    anyPerson: true,
    all: [
      words("should all|should be|need to be|deserve to be|must be|all be|need a|needs a|we need"),
      words("sent back|wiped out|killed|exterminated|gassed|shot|race war|removed|purged|burned"),
    ],
  },

  // Eating disorders.
  {
    id: "concept-days-without-food",
    category: "eating_disorder",
    severity: "high",
    all: [
      words(
        "not eaten|have not eaten|not eaten anything|eaten nothing|no food|not had anything to eat|not had food|eaten anything",
      ),
      words("\\d+ days|days|a week|two days|three days|four days|five days|since"),
    ],
    unless: words("fasting for ramadan|ramadan|lent|religious fast|before surgery|operation"),
  },
  {
    id: "concept-purging-with-harm",
    category: "eating_disorder",
    severity: "high",
    all: [
      words("throw up|throwing up|make myself sick|making myself sick|vomit|purge|purging"),
      words("blood|faint|fainted|dizzy|every meal|after every|after i eat|after eating|collapsed"),
    ],
  },
  {
    id: "concept-fainting-from-restriction",
    category: "eating_disorder",
    severity: "high",
    all: [
      words("fainted|faint|passed out|collapsed|blacked out"),
      words("not eaten|have not eaten|skipping meals|skip meals|not eating|starving|no food|hungry"),
    ],
  },
  {
    id: "concept-calorie-limit",
    category: "eating_disorder",
    severity: "medium",
    all: [
      words("\\d+ calories|\\d+ cals|\\d+ kcal"),
      words("only|a day|per day|limit|under|no more than|allow myself|let myself"),
    ],
    unless: words("food prep|coursework|recipe|label|banana|how many calories|nutrition project"),
  },
  {
    id: "concept-laxatives",
    category: "eating_disorder",
    severity: "medium",
    all: [
      words("laxatives?|diet pills|water pills|diuretics?"),
      words("take|taking|took|every|after|use|using|eat"),
    ],
  },
  {
    id: "concept-skipping-to-lose",
    category: "eating_disorder",
    severity: "medium",
    all: [
      words(
        "skip|skipping|skipped|not eating|stop eating|stopped eating|refuse to eat|hide my food|throw away my lunch",
      ),
      words(
        "thinner|thin|lose weight|losing weight|skinny|fat|nobody notices|no one notices|nobody has noticed|no one has noticed|calories",
      ),
    ],
  },
  {
    id: "concept-disgust-at-eating",
    category: "eating_disorder",
    severity: "medium",
    all: [
      words("disgusting|gross|fat|guilty|hate myself"),
      words(
        "if i eat|when i eat|after i eat|eat anything|eating anything|so i do not eat|so i just do not|so i dont eat",
      ),
    ],
  },

  // Substance misuse.
  {
    id: "concept-unwell-after-substance",
    category: "substance_misuse",
    severity: "high",
    anyPerson: true,
    all: [
      words("mixed|mixing|took|taken|had|drank|smoked|popped|dropped|something"),
      words(
        "xans?|xanax|benzos|vodka|alcohol|pills|mdma|ket|ketamine|spice|lean|codeine|weed|drink|drinks|something|coke|cocaine",
      ),
      words(
        "can not feel|cannot feel|cant feel|will not wake|wont wake|not waking|unconscious|collapsed|being sick|keeps being sick|shaking|heart is racing|heart racing|can not breathe|cannot breathe|struggling to breathe|fitting|seizure|turned blue|passed out",
      ),
    ],
  },
  {
    id: "concept-regular-use",
    category: "substance_misuse",
    severity: "medium",
    all: [
      words("smoke|smoking|drink|drinking|take|taking|use|using|vape|vaping|buying"),
      words(
        "weed|cannabis|skunk|alcohol|vodka|drink|booze|pills|ket|coke|thc|spice|xans|lean|drugs|on my own",
      ),
      words(
        "every morning|every day|every night|most nights|most days|all the time|constantly|before school|at school|on my own|alone|to get through|to stop thinking|to cope|to forget|cannot stop|can not stop",
      ),
    ],
    unless: words("energy drinks?|water|coffee|tea|milk|squash"),
  },

  // Bullying.
  {
    id: "concept-told-to-die",
    category: "bullying",
    severity: "high",
    all: [
      words("people|they|everyone|kids|boys|girls|group|someone|my year|my class|comments|messages"),
      words("telling me|tell me|told me|keep saying|keeps saying|saying|say|messaged me|commented"),
      words("to (?:go )?kill myself|to die|to kys|should die|should kill myself|to go die"),
    ],
  },
  {
    id: "concept-beaten-and-filmed",
    category: "bullying",
    severity: "high",
    all: [
      words("beat me up|beat me|jumped me|attacked me|battered me|hit me|punched me|kicked me"),
      words(
        "filmed|recorded|posted|group|boys|girls|on the way home|after school|at school|in the toilets|year",
      ),
    ],
    unless: words("dad|mum|stepdad|stepmum|carer|uncle|boyfriend|girlfriend|game|fortnite|at chess|at fifa"),
  },
  {
    id: "concept-online-humiliation",
    category: "bullying",
    severity: "medium",
    all: [
      words(
        "group chat|fake account|edited photos|edited pictures|memes? of me|photoshopped|pretending to be me|screenshot|posted|posts|sharing|shared",
      ),
      words(
        "make fun|making fun|laugh at|laughing at|horrible|about me|of me|pretending to be me|humiliate|embarrass",
      ),
    ],
    unless: words("lol|haha|jk"),
  },
  {
    id: "concept-ongoing-bullying",
    category: "bullying",
    severity: "medium",
    all: [
      words(
        "every day|every single day|all the time|constantly|always|keep|keeps|every lesson|in form|at lunch|nobody does anything|teachers do nothing|do nothing",
      ),
      words(
        "bullied|bully me|bullying me|bullies me|call me names|calling me names|throw (?:stuff|things) at me|throwing (?:stuff|things) at me|pick on me|picking on me|make fun of me|laugh at me|trip me|spit at me",
      ),
    ],
    unless: words("monopoly|board game|fifa|chess|cards|lol|haha"),
  },

  // Mental health distress below the suicide line.
  {
    id: "concept-not-coping",
    category: "mental_health_distress",
    severity: "medium",
    all: [
      words("i|me|my"),
      words(
        "can not cope|cannot cope|cant cope|not coping|falling apart|breaking down|cry every night|crying every night|cry myself to sleep|cannot take it|can not take it|cannot do this anymore|can not do this anymore",
      ),
    ],
  },
  {
    id: "concept-worthless",
    category: "mental_health_distress",
    severity: "medium",
    all: [
      words("i am|i feel|feel like|i am just|i am such"),
      words(
        "worthless|a burden|hopeless|a failure at everything|a waste of space|useless at everything|pathetic|broken|empty inside|numb",
      ),
    ],
    unless: words("at maths|at football|at this|at spelling|at drawing|lol|haha"),
  },
  {
    id: "concept-self-hatred",
    category: "mental_health_distress",
    severity: "medium",
    all: [
      words("i"),
      words(
        "hate myself|despise myself|cannot stand myself|can not stand myself|loathe myself|hate who i am|hate everything about me",
      ),
    ],
  },
  {
    id: "concept-panic-and-loneliness",
    category: "mental_health_distress",
    severity: "low",
    all: [
      words("i|me|my"),
      words(
        "panic attacks?|really lonely|so lonely|feel lonely|feeling lonely|feel so alone|feel really alone|anxious all the time|anxiety is bad|really low|so low|really down|feel sad all",
      ),
    ],
    unless: words("character|poem|novel|the speaker|mice and men"),
  },
];
