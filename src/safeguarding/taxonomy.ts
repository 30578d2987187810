/**
 * Safeguarding taxonomy, following the categories of concern in the DfE's "Keeping Children Safe in
 * Education". Pure data: the detector decides which category applies, this module decides what that
 * means (precedence, behaviour per severity, which services to name).
 */

export const safeguardingCategories = [
  "immediate_danger",
  "self_harm_suicide",
  "sexual_exploitation_grooming",
  "abuse_neglect",
  "honour_based_abuse",
  "criminal_exploitation",
  "serious_violence",
  "domestic_abuse",
  "radicalisation_extremism",
  "eating_disorder",
  "substance_misuse",
  "bullying",
  "mental_health_distress",
] as const;
export type SafeguardingCategory = (typeof safeguardingCategories)[number];

export const severities = ["low", "medium", "high"] as const;
export type Severity = (typeof severities)[number];

/** One UK support service as it appears in the `safeguarding` stream event. */
export interface SupportResource {
  name: string;
  contact: string;
  url: string;
}

/** What the detector returns and the `safeguarding` event carries (API §5). */
export interface SafeguardingAssessment {
  category: SafeguardingCategory;
  severity: Severity;
  resources: SupportResource[];
}

/**
 * Every number and address here was checked against a public source; docs/safeguarding.md records
 * which. Change one only together with its source there.
 */
export const supportServices = {
  emergency: {
    name: "Emergency services",
    contact: "Call 999 if you or someone else is in danger right now",
    url: "https://www.police.uk",
  },
  childline: {
    name: "Childline",
    contact: "Call 0800 1111 (free, any time) or chat online",
    url: "https://www.childline.org.uk",
  },
  samaritans: {
    name: "Samaritans",
    contact: "Call 116 123 (free, any time)",
    url: "https://www.samaritans.org",
  },
  shout: { name: "Shout", contact: "Text SHOUT to 85258 (free, any time)", url: "https://giveusashout.org" },
  ceop: {
    name: "CEOP (National Crime Agency)",
    contact: "Report online sexual abuse or grooming online",
    url: "https://www.ceop.police.uk/Safety-Centre/",
  },
  nspcc: { name: "NSPCC Helpline", contact: "Call 0808 800 5000", url: "https://www.nspcc.org.uk" },
  beat: {
    name: "Beat Youthline",
    contact: "Call 0808 801 0711",
    url: "https://www.beateatingdisorders.org.uk",
  },
  frank: {
    name: "FRANK",
    contact: "Confidential drugs advice by phone, text or live chat (details on the website)",
    url: "https://www.talktofrank.com",
  },
  forcedMarriageUnit: {
    name: "Forced Marriage Unit",
    contact: "Call 020 7008 0151",
    url: "https://www.gov.uk/forced-marriage",
  },
  domesticAbuseHelpline: {
    name: "National Domestic Abuse Helpline",
    contact: "Call 0808 2000 247 (free, any time)",
    url: "https://www.nationaldahelpline.org.uk",
  },
  fearless: {
    name: "Fearless (Crimestoppers)",
    contact: "Tell them about crime anonymously online",
    url: "https://www.fearless.org",
  },
  actEarly: {
    name: "ACT Early Support Line (Prevent)",
    contact: "Call 0800 011 3764",
    url: "https://actearly.uk",
  },
} as const satisfies Record<string, SupportResource>;

export interface SeverityBehaviour {
  /** Tutoring stops for this turn: the reply is ours, finishReason is "safeguarding", charge 0. */
  stopsTutoring: boolean;
  /** At most this many of the category's services are named, most relevant first. */
  maxResources: number;
  summary: string;
}

export const severityBehaviour: Record<Severity, SeverityBehaviour> = {
  high: {
    stopsTutoring: true,
    maxResources: 5,
    summary:
      "Possible risk to life, or a disclosure of harm that a designated safeguarding lead would act on today. " +
      "Tutoring stops for this turn; the reply is a warm safeguarding message; nothing is charged.",
  },
  medium: {
    stopsTutoring: false,
    maxResources: 3,
    summary:
      "A real concern without signs of immediate risk. The tutor answers, the event is emitted and a supportive " +
      "line naming the services comes before the answer.",
  },
  low: {
    stopsTutoring: false,
    maxResources: 2,
    summary:
      "A worry or mild distress. The tutor answers, the event is emitted and a short gentle line is added.",
  },
};

export interface CategoryDefinition {
  id: SafeguardingCategory;
  label: string;
  covers: string;
  /** What each level means for this category; a level the category never takes starts "Not used". */
  severityGuide: Record<Severity, string>;
  /** Most relevant first; emergency services are added for high severity where harm could be happening now. */
  services: readonly SupportResource[];
  emergencyWhenHigh: boolean;
}

const s = supportServices;

export const categoryDefinitions: Record<SafeguardingCategory, CategoryDefinition> = {
  immediate_danger: {
    id: "immediate_danger",
    label: "Immediate danger",
    covers:
      "Harm happening now or within hours: an overdose taken, a plan for tonight, someone attacking or threatening the caller now.",
    severityGuide: { high: "Always high.", medium: "Not used.", low: "Not used." },
    services: [s.emergency, s.childline, s.samaritans, s.shout],
    emergencyWhenHigh: true,
  },
  self_harm_suicide: {
    id: "self_harm_suicide",
    label: "Self-harm and suicide",
    covers: "Suicidal thoughts (direct or indirect), self-harm, worry that a friend may end their life.",
    severityGuide: {
      high: "Any suicidal thought, intent or plan; current self-harm; a friend at risk of suicide.",
      medium: "Past self-harm, or a friend who is self-harming.",
      low: "Not used: any sign here is at least medium.",
    },
    services: [s.childline, s.samaritans, s.shout],
    emergencyWhenHigh: true,
  },
  sexual_exploitation_grooming: {
    id: "sexual_exploitation_grooming",
    label: "Sexual abuse, exploitation and grooming",
    covers:
      "All sexual abuse (inside or outside the family), grooming and secrecy demanded by an adult, requests for or " +
      "threats with nude images, gifts or lifts from older people in exchange for something.",
    severityGuide: {
      high: "Any disclosure about the caller.",
      medium: "Worry about a friend, or unwanted sexual messages without pressure or threats.",
      low: "Not used.",
    },
    services: [s.childline, s.ceop, s.nspcc],
    emergencyWhenHigh: true,
  },
  abuse_neglect: {
    id: "abuse_neglect",
    label: "Physical and emotional abuse, neglect",
    covers:
      "Being hurt, threatened or degraded by a parent, carer or other adult; not being fed, kept warm or looked after.",
    severityGuide: {
      high: "Being hurt, locked in, thrown out, or afraid to go home.",
      medium: "Emotional abuse, a parent often drunk or high, not enough food at home.",
      low: "Not used.",
    },
    services: [s.childline, s.nspcc],
    emergencyWhenHigh: true,
  },
  honour_based_abuse: {
    id: "honour_based_abuse",
    label: "So-called honour-based abuse (including FGM and forced marriage)",
    covers: "Female genital mutilation, forced marriage, threats or punishment in the name of family honour.",
    severityGuide: {
      high: "Any disclosure about the caller.",
      medium: "Worry about a sister, cousin or friend.",
      low: "Not used.",
    },
    services: [s.forcedMarriageUnit, s.childline, s.nspcc],
    emergencyWhenHigh: true,
  },
  criminal_exploitation: {
    id: "criminal_exploitation",
    label: "Child criminal exploitation (including county lines)",
    covers:
      "Being made to carry, hold or sell drugs, money or weapons; debts to older people; being sent out of town.",
    severityGuide: {
      high: "Any sign of being used or pressured by others.",
      medium: "Worry about a friend being drawn in.",
      low: "Not used.",
    },
    services: [s.childline, s.fearless],
    emergencyWhenHigh: true,
  },
  serious_violence: {
    id: "serious_violence",
    label: "Serious violence and weapons",
    covers:
      "Knife or gun crime, threats to stab or shoot, carrying a weapon, intent to seriously hurt someone.",
    severityGuide: {
      high: "Threats, weapons, having been attacked, or intent to attack.",
      medium: "Gang involvement or feeling unsafe in the area without a specific threat.",
      low: "Not used.",
    },
    services: [s.childline, s.fearless],
    emergencyWhenHigh: true,
  },
  domestic_abuse: {
    id: "domestic_abuse",
    label: "Domestic abuse",
    covers:
      "Violence or control between adults at home that the caller sees or hears, and abuse in the caller's own relationship.",
    severityGuide: {
      high: "Physical violence at home or in the caller's relationship.",
      medium: "Controlling behaviour, frequent frightening fights, police called to the home.",
      low: "Not used.",
    },
    services: [s.childline, s.domesticAbuseHelpline],
    emergencyWhenHigh: true,
  },
  radicalisation_extremism: {
    id: "radicalisation_extremism",
    label: "Radicalisation and extremism",
    covers:
      "Being recruited or drawn towards an extremist group, wanting to join or carry out an attack, extremist hatred.",
    severityGuide: {
      high: "Recruitment, intent to join or to attack.",
      medium: "Growing agreement with extremist material or a friend being drawn in.",
      low: "Not used.",
    },
    services: [s.childline, s.actEarly],
    emergencyWhenHigh: true,
  },
  eating_disorder: {
    id: "eating_disorder",
    label: "Eating disorders",
    covers: "Restricting food, purging, using laxatives, pro-eating-disorder content, strong body hatred.",
    severityGuide: {
      high: "Days without eating, fainting, or physical danger.",
      medium: "Restricting, purging, laxatives, calorie limits, pro-ana content.",
      low: "Body-image worries linked to food or weight.",
    },
    services: [s.beat, s.childline],
    emergencyWhenHigh: false,
  },
  substance_misuse: {
    id: "substance_misuse",
    label: "Drugs and alcohol",
    covers: "Regular or risky drinking and drug use, using to cope, feeling unwell after taking something.",
    severityGuide: {
      high: "Feeling very unwell after taking something, or mixing substances.",
      medium: "Regular use, using to cope, not being able to stop.",
      low: "Pressure to try something, or one-off use the caller is worried about.",
    },
    services: [s.frank, s.childline],
    emergencyWhenHigh: true,
  },
  bullying: {
    id: "bullying",
    label: "Bullying and cyberbullying",
    covers: "Being bullied in person or online, images shared to humiliate, being told to kill themselves.",
    severityGuide: {
      high: "Being told to kill themselves, or beaten up.",
      medium: "Ongoing bullying, online humiliation, fear of going to school.",
      low: "Being left out or teased.",
    },
    services: [s.childline, s.shout],
    emergencyWhenHigh: false,
  },
  mental_health_distress: {
    id: "mental_health_distress",
    label: "Mental health and distress",
    covers: "Feeling hopeless, worthless, unable to cope, panic, constant sadness or loneliness.",
    severityGuide: {
      high: "Not used: thoughts of not wanting to live are self_harm_suicide.",
      medium: "Hopelessness, worthlessness, not coping, hating themselves.",
      low: "Sadness, loneliness, anxiety or panic.",
    },
    services: [s.childline, s.shout, s.samaritans],
    emergencyWhenHigh: false,
  },
};

/** Whether a category ever takes this severity (mental health distress, for one, is never high). */
export function takesSeverity(category: SafeguardingCategory, severity: Severity): boolean {
  return !categoryDefinitions[category].severityGuide[severity].startsWith("Not used");
}

/**
 * When several categories apply, higher severity wins; between equal severities the category earlier in
 * `safeguardingCategories` wins. That order puts risk to life first, then abuse that needs statutory action,
 * then harms to the caller's own health and wellbeing.
 */
export function outranks(
  a: Pick<SafeguardingAssessment, "category" | "severity">,
  b: Pick<SafeguardingAssessment, "category" | "severity">,
): boolean {
  const severityDifference = severities.indexOf(a.severity) - severities.indexOf(b.severity);
  if (severityDifference !== 0) return severityDifference > 0;
  return safeguardingCategories.indexOf(a.category) < safeguardingCategories.indexOf(b.category);
}

export function resourcesFor(category: SafeguardingCategory, severity: Severity): SupportResource[] {
  const definition = categoryDefinitions[category];
  const services: SupportResource[] = [...definition.services];
  if (severity === "high" && definition.emergencyWhenHigh && !services.includes(s.emergency))
    services.push(s.emergency);
  return services.slice(0, severityBehaviour[severity].maxResources).map((service) => ({ ...service }));
}

export function buildAssessment(category: SafeguardingCategory, severity: Severity): SafeguardingAssessment {
  return { category, severity, resources: resourcesFor(category, severity) };
}
