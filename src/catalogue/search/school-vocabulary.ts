import { stems } from "./text-analysis.ts";

/**
 * Words and abbreviations teachers use interchangeably for the same idea. Each group is a set of phrases that
 * should find each other; a query naming one is expanded with the rest at a reduced weight. Kept to common
 * classroom shorthand across the subjects we cover, not to phrases of any particular specification.
 */
const synonymGroups: readonly (readonly string[])[] = [
  // Science
  ["dna", "deoxyribonucleic acid", "genetic material"],
  ["rna", "ribonucleic acid"],
  ["atp", "adenosine triphosphate"],
  ["ecosystem", "ecology", "ecological"],
  ["enzyme", "biological catalyst"],
  ["cns", "central nervous system"],
  ["adh", "antidiuretic hormone"],
  ["fsh", "follicle stimulating hormone"],
  ["lh", "luteinising hormone"],
  ["ivf", "in vitro fertilisation"],
  ["gm", "genetically modified", "genetic engineering"],
  ["chd", "coronary heart disease"],
  ["hiv", "human immunodeficiency virus"],
  ["bmi", "body mass index"],
  ["ph", "acidity"],
  ["co2", "carbon dioxide"],
  ["o2", "oxygen gas"],
  ["h2o", "water molecule"],
  ["nacl", "sodium chloride", "common salt"],
  ["mr", "relative formula mass"],
  ["ar", "relative atomic mass"],
  ["mole", "mol", "amount of substance"],
  ["rf value", "retention factor"],
  ["redox", "oxidation and reduction"],
  ["sulfur", "sulphur"],
  ["aluminium", "aluminum"],
  ["pd", "potential difference", "voltage"],
  ["emf", "electromotive force"],
  ["ke", "kinetic energy"],
  ["gpe", "gravitational potential energy"],
  ["shc", "specific heat capacity"],
  ["em spectrum", "electromagnetic spectrum", "electromagnetic waves"],
  ["uv", "ultraviolet"],
  ["ir", "infrared"],
  ["ldr", "light dependent resistor"],
  ["led", "light emitting diode"],
  ["nucleus", "nuclei"],
  ["radioactivity", "radioactive decay", "nuclear radiation"],
  ["global warming", "greenhouse effect", "climate change"],
  ["periodic table", "groups and periods"],
  // Mathematics
  ["quadratics", "quadratic equations", "quadratic expressions"],
  ["simultaneous equations", "solving pairs of equations"],
  ["trig", "trigonometry", "sohcahtoa"],
  ["pythagoras", "pythagorean theorem"],
  ["hcf", "highest common factor"],
  ["lcm", "lowest common multiple"],
  ["sig figs", "significant figures"],
  ["dp", "decimal places"],
  ["standard form", "scientific notation"],
  ["bidmas", "bodmas", "order of operations"],
  ["indices", "powers", "exponents"],
  ["gradient", "slope"],
  ["straight line graphs", "linear graphs", "y mx c"],
  ["stats", "statistics"],
  ["probability", "chance"],
  ["surds", "irrational roots"],
  ["percentages", "percent"],
  ["circle theorems", "angles in circles"],
  // Computer science
  ["cpu", "central processing unit", "processor"],
  ["alu", "arithmetic logic unit"],
  ["ram", "random access memory", "main memory"],
  ["rom", "read only memory"],
  ["os", "operating system"],
  ["lan", "local area network"],
  ["wan", "wide area network"],
  ["sql", "structured query language"],
  ["ide", "integrated development environment"],
  ["hex", "hexadecimal"],
  ["binary", "base 2"],
  ["ascii", "character set", "unicode"],
  ["logic gates", "boolean logic"],
  ["cyber security", "network security"],
  ["programming", "coding"],
  // Humanities and English
  ["ww1", "wwi", "first world war", "great war"],
  ["ww2", "wwii", "second world war"],
  ["ussr", "soviet union"],
  ["usa", "united states", "america"],
  ["nhs", "national health service"],
  ["tnc", "transnational corporation", "multinational company"],
  ["hic", "high income country"],
  ["lic", "low income country"],
  ["nee", "newly emerging economy"],
  ["dtm", "demographic transition model"],
  ["hdi", "human development index"],
  ["gdp", "gross domestic product"],
  ["spag", "spelling punctuation and grammar"],
  ["poetry", "poems", "poem"],
  ["nineteenth century novel", "19th century novel"],
  ["creative writing", "descriptive writing", "narrative writing"],
  ["persuasive writing", "viewpoint writing", "transactional writing"],
  // Psychology
  ["ocd", "obsessive compulsive disorder"],
  ["stm", "short term memory"],
  ["ltm", "long term memory"],
  ["msm", "multi store model"],
  ["wmm", "working memory model"],
  ["cbt", "cognitive behavioural therapy"],
  ["ewt", "eyewitness testimony"],
  ["sla", "social learning theory"],
];

export interface SynonymExpansion {
  /** Stems of the phrase found in the text. */
  matched: readonly string[];
  /** Stem sequences of the other phrases in its group. */
  alternatives: readonly (readonly string[])[];
}

interface CompiledGroup {
  phrases: readonly (readonly string[])[];
}

// Analysed exactly as texts are, so a phrase matches the stem sequence a text reduces to.
const compiledGroups: readonly CompiledGroup[] = synonymGroups.map((group) => ({
  phrases: group.map((phrase) => stems(phrase)).filter((phrase) => phrase.length > 0),
}));

/** First stem of each phrase → the groups whose phrase starts with it, for a single pass over a text. */
const groupsByFirstStem = new Map<string, { phrase: readonly string[]; group: CompiledGroup }[]>();
for (const group of compiledGroups) {
  for (const phrase of group.phrases) {
    const first = phrase[0]!;
    const list = groupsByFirstStem.get(first) ?? [];
    list.push({ phrase, group });
    groupsByFirstStem.set(first, list);
  }
}

/** Every synonym phrase found in a stem sequence, with its alternatives; each group reported once. */
export function findSynonyms(sequence: readonly string[]): SynonymExpansion[] {
  const found: SynonymExpansion[] = [];
  const seen = new Set<CompiledGroup>();
  for (let index = 0; index < sequence.length; index += 1) {
    const candidates = groupsByFirstStem.get(sequence[index]!);
    if (!candidates) continue;
    for (const { phrase, group } of candidates) {
      if (seen.has(group)) continue;
      if (phrase.every((part, offset) => sequence[index + offset] === part)) {
        seen.add(group);
        found.push({ matched: phrase, alternatives: group.phrases.filter((other) => other !== phrase) });
      }
    }
  }
  return found;
}
