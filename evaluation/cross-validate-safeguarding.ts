import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ClassifierModel } from "../src/safeguarding/classifier.ts";
import { assessConversationWith } from "../src/safeguarding/detector.ts";
import {
  loadLabelledFiles,
  scoreDetection,
  type DetectionScores,
  type LabelledCase,
} from "./safeguarding.ts";
import { examplesOf, modelPath, train, trainingSettings, vocabularyOf } from "./train-safeguarding.ts";

/**
 * Leave-one-file-out cross-validation of the whole detector (rules and classifier), for choosing changes without
 * the held-out set. Each development file (one author's writing) in turn is left out, a classifier is trained on
 * the rest and the detector is scored on the file left out, with the same scoring as `npm run eval`. Each fold's
 * model is kept under `node_modules/.cache/syllabi/cv/TAG/`, so detector changes that need no retraining
 * (thresholds, rules, how the heads are combined) are scored again in about a minute; use a new TAG after changing
 * features or training.
 *
 *   npm run safeguarding:cv
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

const files = await loadLabelledFiles("development");
const only = environment.ONLY?.split(",");
/**
 * Each item's assessment by its fold's model, worked out while that model is loaded: keeping every fold's model
 * until the pooled score ran out of memory once the models passed about 15 MB each.
 */
const assessmentOf = new Map<LabelledCase, ReturnType<typeof assessConversationWith>>();
const scored: LabelledCase[] = [];
const remembered = (_messages: unknown, item: LabelledCase) => assessmentOf.get(item)!;

const percent = (rate: number) => `${(100 * rate).toFixed(1)}%`;
const summary = (scores: DetectionScores) =>
  `high-severity recall ${percent(scores.highSeverityRecall)}, tutoring stopped ${percent(scores.highSeverityStopped)}, ` +
  `overall ${percent(scores.overallRecall)}, precision ${percent(scores.precision)}, ` +
  `false positives ${percent(scores.hardNegativeFalsePositiveRate)} (${scores.falsePositives.length}), ` +
  `medium and low stopped as high ${percent(scores.lowerStoppedAsHigh)}`;

for (const left of files) {
  if (only && !only.some((part) => left.file.includes(part))) continue;
  const cached = path.join(cacheDirectory, `${left.file}.json`);
  let heads: ReturnType<typeof train>;
  if (existsSync(cached)) heads = JSON.parse(readFileSync(cached, "utf8")) as ReturnType<typeof train>;
  else {
    const examples = examplesOf(files.filter((file) => file !== left).flatMap((file) => file.cases));
    heads = train(examples, vocabularyOf(examples), settings);
    writeFileSync(cached, JSON.stringify(heads));
  }
  const model: ClassifierModel = { trainedOn: "", ...thresholds, ...heads };
  const foldScores = scoreDetection(left.cases, (messages, item) => {
    const assessment = assessConversationWith(model, messages);
    assessmentOf.set(item, assessment);
    return assessment;
  });
  scored.push(...left.cases);
  if (environment.PER_FILE) console.log(`${left.file.padEnd(46)} ${summary(foldScores)}`);
}

const pooled = scoreDetection(scored, remembered);
console.log(`${tag} ${JSON.stringify(thresholds)}: ${summary(pooled)}`);
if (environment.CATEGORIES)
  for (const [category, { found, total }] of pooled.recallByCategory)
    console.log(`  ${category.padEnd(30)} ${found}/${total} ${total === 0 ? "–" : percent(found / total)}`);
if (environment.MISSES)
  writeFileSync(
    environment.MISSES,
    `${[...pooled.misses.map((miss) => `miss ${miss}`), ...pooled.falsePositives.map((flag) => `false positive ${flag}`)].join("\n")}\n`,
  );
