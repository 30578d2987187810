import type { KnowledgeNotes } from "../catalogue/source-schema.ts";

/** Study-skills and revision notes for the general tutor, written for Syllabi in our own words. */
export interface StudySkillNote {
  slug: string;
  title: string;
  keywords: readonly string[];
  notes: KnowledgeNotes;
}

export const studySkillNotes: readonly StudySkillNote[] = Object.freeze([
  {
    slug: "spaced-practice",
    title: "Spacing revision over time",
    keywords: [
      "revision timetable",
      "spaced practice",
      "spacing",
      "schedule",
      "plan",
      "cramming",
      "last minute",
      "revise",
      "revision",
    ],
    notes: {
      summary:
        "Memory lasts longer when the same material is revisited several times with gaps in between, rather than crammed in one long session. A revision timetable that returns to each topic after a day, a few days and a couple of weeks uses this effect deliberately.",
      keyTerms: [
        {
          term: "Spaced practice",
          definition: "Revisiting a topic in several short sessions separated by gaps of days or weeks.",
        },
        {
          term: "Cramming",
          definition: "Trying to learn a lot of material in one long session just before it is needed.",
        },
        {
          term: "Revision timetable",
          definition:
            "A written plan saying which topics to revise on which days, with repeat visits built in.",
        },
      ],
      keyFacts: [
        "Short sessions spread over weeks lead to better long-term recall than the same total time spent in one block.",
        "Forgetting a little between sessions is useful: the effort of remembering again strengthens the memory.",
        "A good timetable mixes subjects in a day and schedules each topic to come back at least three times before the exam.",
        "Starting revision several weeks before an exam leaves room for the gaps that make spacing work.",
      ],
      misconceptions: [
        "Many students believe a long cramming session the night before works best; it can feel effective, but most of it is forgotten within days.",
      ],
    },
  },
  {
    slug: "retrieval-practice",
    title: "Testing yourself (retrieval practice)",
    keywords: [
      "retrieval practice",
      "self-testing",
      "flashcards",
      "quiz",
      "memorise",
      "remember",
      "recall",
      "rereading",
      "highlighting",
      "revise",
      "revision",
    ],
    notes: {
      summary:
        "Pulling information out of memory, for example by answering questions or using flashcards, strengthens it far more than reading notes again. Checking answers straight afterwards shows what still needs work.",
      keyTerms: [
        {
          term: "Retrieval practice",
          definition:
            "Recalling information from memory without looking, such as answering questions or writing down what you know.",
        },
        {
          term: "Flashcards",
          definition:
            "Cards with a question or term on one side and the answer on the other, used to test recall.",
        },
        {
          term: "Blank-page recall",
          definition:
            "Writing down everything you remember about a topic before checking your notes for gaps.",
        },
      ],
      keyFacts: [
        "Testing yourself improves later recall more than rereading or highlighting for the same amount of time.",
        "Answers should be checked against notes or a mark scheme straight away so mistakes are corrected.",
        "Cards you get wrong should come back sooner than cards you get right.",
        "Practice questions work best when attempted without notes first.",
      ],
      misconceptions: [
        "Rereading notes until they feel familiar is often mistaken for learning; recognising material is much easier than recalling it in an exam.",
        "Some students only test themselves on what they already know; the gains come from working on the questions you get wrong.",
      ],
    },
  },
  {
    slug: "exam-technique",
    title: "Exam technique and command words",
    keywords: [
      "exam technique",
      "command words",
      "describe",
      "explain",
      "evaluate",
      "marks",
      "mark scheme",
      "past papers",
      "timing",
      "exam",
      "exams",
      "answer questions",
    ],
    notes: {
      summary:
        "Exam questions say what they want through command words and mark allocations. Reading the command word, matching the number of points to the marks and practising past papers under timed conditions turn knowledge into marks.",
      keyTerms: [
        {
          term: "Command word",
          definition:
            "The instruction word in a question, such as state, describe, explain or evaluate, that sets what kind of answer is needed.",
        },
        {
          term: "Mark scheme",
          definition: "The examiners' guide listing the points that earn credit for each question.",
        },
        {
          term: "Past paper",
          definition: "A previous exam paper, used to practise questions in the real format and timing.",
        },
      ],
      keyFacts: [
        "State needs a short fact; describe needs what happens; explain needs reasons, often linked with because or so.",
        "The number of marks is a guide to how many separate points an answer needs.",
        "A rough pace is about one minute per mark, leaving time to check at the end.",
        "Marking your own practice answers with the mark scheme shows which points examiners expect.",
      ],
      misconceptions: [
        "Writing everything you know about a topic is not the same as answering the question; marks go to points that address the command word.",
      ],
    },
  },
  {
    slug: "making-notes",
    title: "Making useful revision notes",
    keywords: [
      "notes",
      "note taking",
      "summarise",
      "mind map",
      "diagrams",
      "dual coding",
      "condense",
      "organise",
      "revision notes",
    ],
    notes: {
      summary:
        "Notes help most when making them forces you to think: condensing a topic into your own words, linking ideas in a mind map, or pairing words with a simple diagram. Copying text out neatly uses time without much learning.",
      keyTerms: [
        {
          term: "Dual coding",
          definition:
            "Combining words with a simple picture, diagram or timeline so the idea is stored in two ways.",
        },
        {
          term: "Mind map",
          definition: "A diagram with a topic at the centre and branches showing how the ideas connect.",
        },
        {
          term: "Condensing",
          definition: "Reducing notes step by step to key words and prompts that you can expand from memory.",
        },
      ],
      keyFacts: [
        "Putting ideas into your own words shows whether you understand them.",
        "Condensed notes work best as prompts for self-testing rather than as something to reread.",
        "Diagrams are most useful when they show how parts link, not as decoration.",
      ],
      misconceptions: [
        "Neat, colourful notes are often treated as the goal; the benefit comes from the thinking done while making them.",
      ],
    },
  },
  {
    slug: "focus-and-routine",
    title: "Focus, breaks and routine",
    keywords: [
      "focus",
      "concentrate",
      "concentration",
      "procrastination",
      "motivation",
      "breaks",
      "phone",
      "distraction",
      "sleep",
      "routine",
      "pomodoro",
      "study session",
    ],
    notes: {
      summary:
        "Concentration is easier in short, planned sessions with breaks, away from a phone, and with enough sleep. Starting with a small, specific task beats waiting to feel motivated.",
      keyTerms: [
        {
          term: "Timed session",
          definition: "A fixed stretch of focused work, such as 25 to 40 minutes, followed by a short break.",
        },
        { term: "Procrastination", definition: "Putting off a task, often because it feels big or unclear." },
      ],
      keyFacts: [
        "A phone in sight, even switched off, pulls attention away from work; another room is better.",
        "Sleep helps the brain consolidate what was learned during the day.",
        "Breaking a topic into a small first task, such as ten flashcards, makes starting easier.",
      ],
      misconceptions: [
        "Long sessions without breaks are often assumed to be more productive; attention drops, and short breaks usually help you get more done.",
      ],
    },
  },
]) as readonly StudySkillNote[];
