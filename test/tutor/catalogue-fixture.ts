import { compileCatalogue } from "../../src/catalogue/compile.ts";
import type { CatalogueSnapshot } from "../../src/catalogue/model.ts";
import type { SpecificationSource } from "../../src/catalogue/source-schema.ts";

/** A small hand-written catalogue: two mapped subjects and one unmapped, enough for retrieval and questions. */

const biology: SpecificationSource = {
  id: "aqa-gcse-biology-8461",
  name: "Biology",
  qualification: "GCSE",
  examBoard: "aqa",
  specificationCode: "8461",
  firstTeaching: 2016,
  specificationUrl: "https://www.aqa.org.uk/subjects/biology/gcse/biology-8461",
  documentUrl: "https://filestore.aqa.org.uk/resources/biology/specifications/AQA-8461-SP-2016.PDF",
  genie: { shortName: "aqa-gcse-biology", name: "Biology Genie" },
  mapping: "mapped",
  sources: [
    {
      url: "https://www.aqa.org.uk/subjects/biology/gcse/biology-8461",
      title: "AQA GCSE Biology",
      confirms: "structure",
    },
  ],
  topics: [
    {
      slug: "cell-biology",
      name: "Cell biology",
      subtopics: [
        {
          slug: "cell-structure",
          name: "Cell structure",
          description: "How animal, plant and bacterial cells are built and what their parts do.",
          keywords: ["eukaryotic", "prokaryotic", "organelles", "nucleus", "mitochondria", "cell membrane"],
          specRefs: [{ code: "4.1.1.1", unitName: "Cell biology" }],
          notes: {
            summary:
              "Cells are the basic units of living things. Animal and plant cells are eukaryotic and keep their genetic material in a nucleus, while bacteria are prokaryotic and have no nucleus.",
            keyTerms: [
              {
                term: "Nucleus",
                definition:
                  "The organelle that contains the genetic material and controls the activities of the cell.",
              },
              {
                term: "Mitochondria",
                definition: "Organelles where aerobic respiration happens, releasing energy for the cell.",
              },
              {
                term: "Cell membrane",
                definition: "The thin layer around a cell that controls which substances enter and leave.",
              },
              {
                term: "Prokaryotic cell",
                definition:
                  "A cell without a nucleus whose genetic material is a single loop of DNA in the cytoplasm.",
              },
            ],
            keyFacts: [
              "Plant cells have a cell wall made of cellulose, which strengthens the cell.",
              "Chloroplasts absorb light so that photosynthesis can happen in plant cells.",
              "Bacteria have plasmids, small rings of DNA, as well as their main loop of DNA.",
              "Mitochondria are where aerobic respiration releases energy.",
            ],
            misconceptions: [
              "Students often think that all plant cells contain chloroplasts, but root cells have none because they receive no light.",
              "Many students believe that bacteria have a nucleus; in fact their DNA floats freely in the cytoplasm.",
            ],
          },
        },
        {
          slug: "diffusion-and-osmosis",
          name: "Diffusion and osmosis",
          description:
            "How substances move into and out of cells by diffusion, osmosis and active transport.",
          keywords: [
            "diffusion",
            "osmosis",
            "active transport",
            "concentration gradient",
            "partially permeable",
          ],
          specRefs: [{ code: "4.1.3.1", unitName: "Cell biology" }],
          notes: {
            summary:
              "Particles spread from where they are more concentrated to where they are less concentrated. Osmosis is the diffusion of water through a partially permeable membrane, and active transport moves substances against a gradient using energy.",
            keyTerms: [
              {
                term: "Diffusion",
                definition:
                  "The net movement of particles from a higher concentration to a lower concentration.",
              },
              {
                term: "Osmosis",
                definition:
                  "The diffusion of water from a dilute solution to a concentrated solution through a partially permeable membrane.",
              },
              {
                term: "Active transport",
                definition:
                  "Movement of substances against a concentration gradient, using energy from respiration.",
              },
            ],
            keyFacts: [
              "A steeper concentration gradient makes diffusion faster.",
              "A larger surface area to volume ratio increases the rate of diffusion.",
              "Root hair cells use active transport to take in mineral ions from dilute soil water.",
            ],
            misconceptions: [
              "Students often think that particles stop moving once concentrations are equal, but they keep moving randomly with no net movement.",
            ],
          },
        },
      ],
    },
    {
      slug: "bioenergetics",
      name: "Bioenergetics",
      subtopics: [
        {
          slug: "photosynthesis",
          name: "Photosynthesis",
          description: "How plants use light energy to make glucose from carbon dioxide and water.",
          keywords: ["photosynthesis", "chlorophyll", "glucose", "limiting factors", "light intensity"],
          specRefs: [{ code: "4.4.1.1", unitName: "Bioenergetics" }],
          notes: {
            summary:
              "Photosynthesis is an endothermic reaction in which plants use light energy, absorbed by chlorophyll, to turn carbon dioxide and water into glucose and oxygen.",
            keyTerms: [
              {
                term: "Chlorophyll",
                definition: "The green pigment in chloroplasts that absorbs light energy for photosynthesis.",
              },
              {
                term: "Limiting factor",
                definition:
                  "The condition in shortest supply that stops the rate of a reaction from increasing.",
              },
              {
                term: "Endothermic reaction",
                definition: "A reaction that takes in energy from the surroundings.",
              },
            ],
            keyFacts: [
              "The word equation is carbon dioxide plus water gives glucose plus oxygen.",
              "Light intensity, carbon dioxide concentration and temperature can each be a limiting factor.",
              "Plants use glucose for respiration, to make cellulose and to make starch for storage.",
            ],
            misconceptions: [
              "Many students think that plants get their food from the soil; in fact they make glucose by photosynthesis.",
              "Students often think that plants only respire at night, but they respire all the time.",
            ],
          },
        },
        {
          slug: "respiration",
          name: "Respiration",
          description: "How cells release energy from glucose with and without oxygen.",
          keywords: [
            "aerobic respiration",
            "anaerobic respiration",
            "oxygen debt",
            "lactic acid",
            "fermentation",
          ],
          specRefs: [{ code: "4.4.2.1", unitName: "Bioenergetics" }],
          notes: {
            summary:
              "Respiration is an exothermic reaction that releases energy from glucose in every living cell. Aerobic respiration uses oxygen; anaerobic respiration does not and releases much less energy.",
            keyTerms: [
              {
                term: "Aerobic respiration",
                definition:
                  "Respiration using oxygen, which releases a lot of energy and produces carbon dioxide and water.",
              },
              {
                term: "Anaerobic respiration",
                definition:
                  "Respiration without oxygen, which in muscles produces lactic acid and releases less energy.",
              },
              {
                term: "Oxygen debt",
                definition: "The amount of extra oxygen needed after exercise to break down lactic acid.",
              },
            ],
            keyFacts: [
              "Respiration happens continuously in all living cells.",
              "Anaerobic respiration in yeast is called fermentation and produces ethanol and carbon dioxide.",
            ],
            misconceptions: [
              "Students often think that respiration is the same as breathing, but respiration is a chemical reaction in cells.",
            ],
          },
        },
      ],
    },
  ],
};

const chemistry: SpecificationSource = {
  id: "edexcel-gcse-chemistry-1ch0",
  name: "Chemistry",
  qualification: "GCSE",
  examBoard: "edexcel",
  specificationCode: "1CH0",
  firstTeaching: 2016,
  specificationUrl: "https://qualifications.pearson.com/en/qualifications/edexcel-gcses/chemistry-2016.html",
  documentUrl: "https://qualifications.pearson.com/content/dam/pdf/GCSE/Science/2016/specification.pdf",
  genie: { shortName: "edexcel-gcse-chemistry", name: "Chemistry Genie" },
  mapping: "mapped",
  sources: [
    {
      url: "https://qualifications.pearson.com/en/qualifications/edexcel-gcses/chemistry-2016.html",
      title: "Edexcel GCSE Chemistry",
      confirms: "structure",
    },
  ],
  topics: [
    {
      slug: "atomic-structure",
      name: "Atomic structure",
      subtopics: [
        {
          slug: "atoms-and-isotopes",
          name: "Atoms and isotopes",
          description: "The structure of the atom and why isotopes of an element have different masses.",
          keywords: ["proton", "neutron", "electron", "isotope", "atomic number", "mass number"],
          specRefs: [{ code: "1.1", unitName: "Topic 1 Key concepts in chemistry" }],
          notes: {
            summary:
              "An atom has a tiny nucleus of protons and neutrons surrounded by electrons. The number of protons sets the element; isotopes have the same number of protons but different numbers of neutrons.",
            keyTerms: [
              {
                term: "Isotope",
                definition:
                  "Atoms of the same element with the same number of protons but different numbers of neutrons.",
              },
              { term: "Atomic number", definition: "The number of protons in the nucleus of an atom." },
              {
                term: "Mass number",
                definition: "The total number of protons and neutrons in the nucleus of an atom.",
              },
            ],
            keyFacts: [
              "Protons have a relative charge of plus one and electrons minus one.",
              "Atoms have no overall charge because they contain equal numbers of protons and electrons.",
              "Almost all the mass of an atom is in its nucleus.",
            ],
            misconceptions: [
              "Students often think that isotopes are different elements, but they are forms of the same element.",
            ],
          },
        },
        {
          slug: "ionic-bonding",
          name: "Ionic bonding",
          description: "How metals and non-metals form ions and ionic compounds.",
          keywords: ["ions", "ionic bond", "electrostatic", "lattice", "electron transfer"],
          specRefs: [{ code: "1.20", unitName: "Topic 1 Key concepts in chemistry" }],
          notes: {
            summary:
              "In ionic bonding, metal atoms lose electrons and non-metal atoms gain them, forming oppositely charged ions held together by strong electrostatic forces in a giant lattice.",
            keyTerms: [
              {
                term: "Ion",
                definition:
                  "An atom or group of atoms with an electric charge because it has lost or gained electrons.",
              },
              {
                term: "Ionic lattice",
                definition:
                  "A regular giant structure of oppositely charged ions held by electrostatic forces.",
              },
            ],
            keyFacts: [
              "Ionic compounds have high melting points because the electrostatic forces are strong.",
              "Ionic compounds conduct electricity when molten or dissolved because the ions can move.",
            ],
            misconceptions: [
              "Students often think that solid ionic compounds conduct electricity, but the ions cannot move in a solid.",
            ],
          },
        },
      ],
    },
  ],
};

const history: SpecificationSource = {
  id: "ocr-gcse-history-j411",
  name: "History",
  qualification: "GCSE",
  examBoard: "ocr",
  specificationCode: "J411",
  firstTeaching: 2016,
  specificationUrl:
    "https://www.ocr.org.uk/qualifications/gcse/history-b-schools-history-project-j411-from-2016/",
  documentUrl: "https://www.ocr.org.uk/Images/207164-specification-accredited-gcse-history-b-j411.pdf",
  genie: { shortName: "ocr-gcse-history", name: "History Genie" },
  mapping: "unmapped",
  sources: [
    {
      url: "https://www.ocr.org.uk/qualifications/gcse/history-b-schools-history-project-j411-from-2016/",
      title: "OCR GCSE History B",
      confirms: "structure",
    },
  ],
  topics: [
    {
      slug: "the-norman-conquest",
      name: "The Norman Conquest",
      subtopics: [
        {
          slug: "battle-of-hastings",
          name: "Battle of Hastings",
          description: "Why William of Normandy won at Hastings in 1066.",
          keywords: ["hastings", "1066", "william", "harold"],
        },
      ],
    },
  ],
};

export function sampleCatalogue(): CatalogueSnapshot {
  return compileCatalogue([biology, chemistry, history]);
}

export const biologyId = biology.id;
export const chemistryId = chemistry.id;
export const historyId = history.id;
