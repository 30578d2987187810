import { compileCatalogue } from "../../src/catalogue/compile.ts";
import type { CatalogueSnapshot } from "../../src/catalogue/model.ts";
import type { SpecificationSource, SubtopicSource } from "../../src/catalogue/source-schema.ts";

/** A small, fixed catalogue written for search and alignment tests, independent of the real content. */

type SubtopicSketch = [slug: string, name: string, description: string, keywords: string[], summary?: string];
type TopicSketch = [slug: string, name: string, subtopics: SubtopicSketch[]];

function subtopic([slug, name, description, keywords, summary]: SubtopicSketch): SubtopicSource {
  return {
    slug,
    name,
    description,
    keywords,
    ...(summary
      ? {
          notes: {
            summary,
            keyTerms: [
              { term: keywords[0] ?? name, definition: `${name}: a key idea in this part of the course.` },
              { term: keywords[1] ?? name, definition: `${name}: a second key idea for this subtopic.` },
            ],
            keyFacts: [`${description}`, `Students should be able to explain ${name.toLowerCase()}.`],
            misconceptions: [`Students often confuse ${name.toLowerCase()} with a neighbouring idea.`],
          },
        }
      : {}),
  };
}

export function specification(
  id: string,
  name: string,
  qualification: SpecificationSource["qualification"],
  examBoard: SpecificationSource["examBoard"],
  specificationCode: string,
  topics: TopicSketch[],
): SpecificationSource {
  return {
    id,
    name,
    qualification,
    examBoard,
    specificationCode,
    firstTeaching: 2016,
    specificationUrl: "https://www.example.org/spec",
    documentUrl: "https://www.example.org/spec.pdf",
    genie: { shortName: id.replace(/-\d+$/, ""), name: `${name} Genie` },
    mapping: "unmapped",
    sources: [{ url: "https://www.example.org/spec", title: "Test fixture", confirms: "nothing" }],
    topics: topics.map(([slug, topicName, subtopics]) => ({
      slug,
      name: topicName,
      subtopics: subtopics.map(subtopic),
    })),
  };
}

export const gcseBiology = specification("aqa-gcse-biology-8461", "Biology", "GCSE", "aqa", "8461", [
  [
    "cell-biology",
    "Cell biology",
    [
      [
        "cell-structure",
        "Cell structure",
        "Eukaryotic and prokaryotic cells, the organelles inside them and how microscopes reveal them.",
        ["eukaryotic", "prokaryotic", "organelles", "nucleus", "microscopy", "magnification"],
        "Animal and plant cells are eukaryotic with a nucleus; bacteria are prokaryotic. Magnification equals image size divided by real size.",
      ],
      [
        "cell-division",
        "Cell division",
        "Chromosomes, the cell cycle and mitosis, and how stem cells differentiate.",
        ["mitosis", "cell cycle", "chromosomes", "stem cells", "differentiation"],
        "During mitosis a cell divides to make two genetically identical daughter cells; the cell cycle includes growth and DNA replication.",
      ],
      [
        "transport-in-cells",
        "Transport in cells",
        "Diffusion, osmosis and active transport across cell membranes.",
        [
          "diffusion",
          "osmosis",
          "active transport",
          "concentration gradient",
          "partially permeable membrane",
        ],
        "Diffusion is the net movement of particles from high to low concentration. Osmosis is the diffusion of water across a partially permeable membrane.",
      ],
    ],
  ],
  [
    "bioenergetics",
    "Bioenergetics",
    [
      [
        "photosynthesis",
        "Photosynthesis",
        "How plants use light energy to make glucose from carbon dioxide and water, and the factors that limit the rate.",
        ["chlorophyll", "glucose", "limiting factors", "light intensity", "endothermic"],
        "Photosynthesis is an endothermic reaction in chloroplasts: carbon dioxide plus water makes glucose and oxygen using light.",
      ],
      [
        "respiration",
        "Respiration",
        "Aerobic and anaerobic respiration release energy from glucose; the oxygen debt after exercise; metabolism.",
        ["aerobic", "anaerobic", "oxygen debt", "lactic acid", "metabolism", "exercise"],
        "Respiration is an exothermic reaction in mitochondria transferring energy for muscle contraction; anaerobic respiration makes lactic acid.",
      ],
    ],
  ],
  [
    "inheritance-variation-and-evolution",
    "Inheritance, variation and evolution",
    [
      [
        "dna-and-the-genome",
        "DNA and the genome",
        "The structure of DNA as a polymer of nucleotides, genes and the genome, and how proteins are made.",
        ["dna", "double helix", "nucleotides", "genes", "genome", "protein synthesis"],
        "DNA is a double helix polymer carrying the genetic code in sequences of bases that code for proteins.",
      ],
      [
        "genetic-inheritance",
        "Genetic inheritance",
        "Alleles, dominant and recessive characteristics, genotype and phenotype, and Punnett squares.",
        ["alleles", "dominant", "recessive", "genotype", "phenotype", "punnett square"],
        "A Punnett square predicts the probability of offspring genotypes from the alleles of each parent.",
      ],
      [
        "evolution",
        "Evolution and natural selection",
        "Darwin's theory of evolution by natural selection, speciation and evidence from fossils.",
        ["darwin", "natural selection", "fossils", "speciation", "antibiotic resistance"],
        "Natural selection means individuals with advantageous variations survive and breed, passing on their alleles.",
      ],
    ],
  ],
  [
    "ecology",
    "Ecology",
    [
      [
        "ecosystems",
        "Communities and ecosystems",
        "How organisms in a community depend on each other, abiotic and biotic factors, and sampling with quadrats.",
        ["community", "interdependence", "abiotic", "biotic", "quadrat", "food chains"],
        "An ecosystem is the interaction of a community of living organisms with the non-living parts of their environment.",
      ],
    ],
  ],
]);

export const gcseChemistry = specification("aqa-gcse-chemistry-8462", "Chemistry", "GCSE", "aqa", "8462", [
  [
    "atomic-structure",
    "Atomic structure and the periodic table",
    [
      [
        "atoms-and-isotopes",
        "Atoms, elements and isotopes",
        "Protons, neutrons and electrons, atomic number and mass number, and isotopes.",
        ["protons", "neutrons", "electrons", "isotopes", "mass number"],
      ],
      [
        "periodic-table",
        "The periodic table",
        "How the periodic table is arranged in groups and periods, and the trends in groups 1, 7 and 0.",
        ["groups", "periods", "alkali metals", "halogens", "noble gases"],
      ],
    ],
  ],
  [
    "chemical-changes",
    "Chemical changes",
    [
      [
        "electrolysis",
        "Electrolysis",
        "Splitting ionic compounds using electricity: electrodes, half equations and the extraction of aluminium.",
        ["electrodes", "anode", "cathode", "electrolyte", "half equations", "aluminium extraction"],
      ],
      [
        "acids-and-alkalis",
        "Acids and alkalis",
        "Neutralisation, the pH scale, salts and titrations.",
        ["neutralisation", "ph scale", "salts", "titration", "indicators"],
      ],
    ],
  ],
  [
    "rates",
    "The rate and extent of chemical change",
    [
      [
        "rates-of-reaction",
        "Rates of reaction",
        "Measuring the rate of reaction and how temperature, concentration, surface area and catalysts change it.",
        ["rate of reaction", "collision theory", "catalysts", "activation energy", "surface area"],
      ],
    ],
  ],
]);

export const alevelBiology = specification("aqa-a-level-biology-7402", "Biology", "A-Level", "aqa", "7402", [
  [
    "energy-transfers",
    "Energy transfers in and between organisms",
    [
      [
        "photosynthesis",
        "Photosynthesis: light-dependent and light-independent reactions",
        "The light-dependent reaction in the thylakoids and the Calvin cycle in the stroma.",
        ["photolysis", "calvin cycle", "rubisco", "thylakoid", "photosystem"],
      ],
    ],
  ],
]);

export const gcseMaths = specification("edexcel-gcse-maths-1ma1", "Mathematics", "GCSE", "edexcel", "1MA1", [
  [
    "algebra",
    "Algebra",
    [
      [
        "quadratic-equations",
        "Solving quadratic equations",
        "Solving quadratics by factorising, completing the square and the quadratic formula.",
        ["factorising", "completing the square", "quadratic formula", "roots", "discriminant"],
      ],
      [
        "simultaneous-equations",
        "Simultaneous equations",
        "Solving two equations in two unknowns by elimination, substitution and graphically.",
        ["elimination", "substitution", "linear", "unknowns"],
      ],
      [
        "straight-line-graphs",
        "Straight-line graphs",
        "Plotting and interpreting linear graphs, gradient and intercept, y = mx + c.",
        ["gradient", "intercept", "y = mx + c", "parallel lines"],
      ],
    ],
  ],
  [
    "geometry",
    "Geometry and measures",
    [
      [
        "pythagoras",
        "Pythagoras' theorem",
        "Finding a missing side of a right-angled triangle with a squared plus b squared equals c squared.",
        ["hypotenuse", "right-angled triangle", "missing side"],
      ],
      [
        "trigonometry",
        "Right-angled trigonometry",
        "Using sine, cosine and tangent ratios to find sides and angles in right-angled triangles.",
        ["sine", "cosine", "tangent", "sohcahtoa", "angles of elevation"],
      ],
    ],
  ],
]);

export const computerScience = specification(
  "ocr-gcse-computer-science-j277",
  "Computer Science",
  "GCSE",
  "ocr",
  "J277",
  [
    [
      "systems-architecture",
      "Systems architecture",
      [
        [
          "cpu",
          "The purpose and function of the CPU",
          "The fetch-execute cycle and the components of the CPU: ALU, control unit, cache and registers.",
          ["fetch-execute cycle", "alu", "control unit", "registers", "von neumann"],
        ],
        [
          "memory",
          "Memory and storage",
          "Primary storage RAM and ROM, virtual memory, and secondary storage devices.",
          ["ram", "rom", "virtual memory", "secondary storage", "solid state"],
        ],
      ],
    ],
  ],
);

export function fixtureCatalogue(): CatalogueSnapshot {
  return compileCatalogue([gcseBiology, gcseChemistry, alevelBiology, gcseMaths, computerScience]);
}
