import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ClassifierModel } from "../src/safeguarding/classifier.ts";
import { assessConversationWith } from "../src/safeguarding/detector.ts";
import { loadLabelledFiles, type LabelledCase } from "./safeguarding.ts";
import { examplesOf, modelPath, train, trainingSettings, vocabularyOf } from "./train-safeguarding.ts";

/**
 * Leave-one-file-out cross-validation of the whole detector (rules and classifier), for choosing changes without
 * the held-out set. Each development file (one author's writing) in turn is left out, a classifier is trained on
 * the rest and the detector is scored on the file left out. Each fold's model is kept under
 * `node_modules/.cache/syllabi/cv/TAG/`, so detector changes that need no retraining (thresholds, rules, how the
 * heads are combined) are scored again in about a minute; use a new TAG after changing features or training.
 *
 *   node --import tsx evaluation/cross-validate-safeguarding.ts
 *
 * Environment: TAG (cache name, default "current"); SETTINGS (JSON overriding the training settings); T, HIGH_T,
 * ALARM_T, ALARM_MIN_CONCERN (override the shipped model's thresholds); ONLY (comma-separated parts of file names);
 * PER_FILE=1 and CATEGORIES=1 (more lines); MISSES=path (write the ids missed and falsely flagged, for reading
 * development items only).
 */
const environment = process.env;
const tag = environment.TAG ?? "current";
const settings = { ...trainingSettings, ...(environment.SETTINGS ? JSON.parse(environment.SETTINGS) : {}) };
const shipped = JSON.parse(readFileSync(modelPath, "utf8")) as ClassifierModel;
const thresholds = {
  threshold: Number(environment.T ?? shipped.threshold),
  highThreshold: Number(environment.HIGH_T ?? shipped.highThreshold),
  alarmThreshold: Number(environment.ALARM_T ?? shipped.alarmThreshold),
  alarmMinConcern: Number(environment.ALARM_MIN_CONCERN ?? shipped.alarmMinConcern),
};
const cacheDirectory = path.resolve(import.meta.dirname, "../node_modules/.cache/syllabi/cv", tag);
mkdirSync(cacheDirectory, { recursive: true });

type TrainedHeads = ReturnType<typeof train>;
const conversationOf = (item: LabelledCase) =>
  item.messages ?? [{ role: "user" as const, content: item.text ?? "" }];
const files = await loadLabelledFiles("development");
const only = environment.ONLY?.split(",");
const totals = {
  high: 0,
  highTotal: 0,
  stopped: 0,
  found: 0,
  disclosures: 0,
  falsePositives: 0,
  negatives: 0,
};
const byCategory = new Map<string, { found: number; total: number }>();
const notes: string[] = [];

for (const left of files) {
  if (only && !only.some((part) => left.file.includes(part))) continue;
  const cached = path.join(cacheDirectory, `${left.file}.json`);
  let heads: TrainedHeads;
  if (existsSync(cached)) heads = JSON.parse(readFileSync(cached, "utf8")) as TrainedHeads;
  else {
    const examples = examplesOf(files.filter((file) => file !== left).flatMap((file) => file.cases));
    heads = train(examples, vocabularyOf(examples), settings);
    writeFileSync(cached, JSON.stringify(heads));
  }
  const model: ClassifierModel = { trainedOn: "", ...thresholds, ...heads };
  const fileTotals = { high: 0, highTotal: 0, falsePositives: 0, negatives: 0 };
  for (const item of left.cases) {
    const assessment = assessConversationWith(model, conversationOf(item));
    const expected = item.expected;
    if (expected.category === null) {
      totals.negatives += 1;
      fileTotals.negatives += 1;
      if (assessment) {
        totals.falsePositives += 1;
        fileTotals.falsePositives += 1;
        notes.push(`false positive ${item.id} → ${assessment.category}/${assessment.severity}`);
      }
      continue;
    }
    totals.disclosures += 1;
    if (assessment?.category === expected.category) totals.found += 1;
    if (expected.severity !== "high") continue;
    totals.highTotal += 1;
    fileTotals.highTotal += 1;
    const category = byCategory.get(expected.category) ?? { found: 0, total: 0 };
    category.total += 1;
    byCategory.set(expected.category, category);
    if (assessment?.severity === "high") totals.stopped += 1;
    if (assessment?.severity === "high" && assessment.category === expected.category) {
      totals.high += 1;
      fileTotals.high += 1;
      category.found += 1;
    } else {
      const got = assessment ? `${assessment.category}/${assessment.severity}` : "nothing";
      notes.push(`miss ${item.id} ${expected.category} → ${got}`);
    }
  }
  if (environment.PER_FILE)
    console.log(
      `${left.file.padEnd(50)} high ${fileTotals.high}/${fileTotals.highTotal}  false positives ${fileTotals.falsePositives}/${fileTotals.negatives}`,
    );
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
console.log(
  `${tag} ${JSON.stringify(thresholds)}: high-severity recall ${percent(totals.high, totals.highTotal)} ` +
    `(${totals.highTotal - totals.high} missed of ${totals.highTotal}), tutoring stopped ${percent(totals.stopped, totals.highTotal)}, ` +
    `overall ${percent(totals.found, totals.disclosures)}, false positives ${percent(totals.falsePositives, totals.negatives)} ` +
    `(${totals.falsePositives}/${totals.negatives})`,
);
if (environment.CATEGORIES)
  for (const [category, { found, total }] of [...byCategory].sort())
    console.log(`  ${category.padEnd(30)} ${found}/${total} ${percent(found, total)}`);
if (environment.MISSES) writeFileSync(environment.MISSES, `${notes.join("\n")}\n`);
