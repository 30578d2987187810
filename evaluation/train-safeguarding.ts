import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import {
  classifierClasses,
  classifierInput,
  featuresOf,
  noConcern,
  score,
  sigmoid,
  softmax,
  type ClassifierModel,
} from "../src/safeguarding/classifier.ts";
import type { ChatMessage } from "../src/tutor/messages.ts";
import { loadLabelledCases, type LabelledCase } from "./safeguarding.ts";

/**
 * Trains the safeguarding classifier on the development data only (never the held-out set) and writes
 * src/safeguarding/classifier-model.json. Deterministic: the same data always gives the same model.
 *
 *   npm run safeguarding:train
 */

interface Example {
  features: string[];
  label: number;
  /** 1 for a high-severity disclosure, 0 for a lower one, null for "no concern" (not used by the severity head). */
  high: 0 | 1 | null;
}

export interface TrainingSettings {
  epochs: number;
  learningRate: number;
  l2: number;
  /**
   * The model is the average of the weights at the end of each epoch from this one on, rather than the last
   * epoch's: averaging smooths out the noise of the final steps (leaving files out in turn, from epoch 6 of 12:
   * high-severity recall 85.2% → 85.7%, overall 83.8% → 84.6%, false positives 6.8% either way).
   */
  averageFrom: number;
  /**
   * How much a harmless ("no concern") example counts in the category and alarm heads' steps, against 1 for a
   * disclosure: harmless messages that look like disclosures are what the detector gets wrong most often (leaving
   * files out in turn, with the thresholds below: weight 2 took false positives 6.3% → 5.8% and high-severity recall
   * 85.2% → 85.5%; weight 3 did worse on both).
   */
  harmlessWeight: number;
}
export const trainingSettings: TrainingSettings = {
  epochs: 12,
  learningRate: 0.2,
  l2: 3e-3,
  averageFrom: 6,
  harmlessWeight: 2,
};
const minFeatureCount = 2;
/** Probability of high severity from which the classifier calls a concern high (see ClassifierModel). */
const highThreshold = 0.2;
/**
 * Alarm probability, and chance of any concern, from which the classifier calls a high-severity concern below its
 * threshold (see ClassifierModel). Chosen by leaving files out in turn (sweeps over 0.4–0.85 and 0–0.9, with l2 1e-3
 * and 3e-3; with harmless examples weighted 2, the high-severity and alarm thresholds 0.3 and 0.4 became 0.2 and 0.3,
 * from sweeps over 0.15–0.3 and 0.25–0.4).
 */
const alarmThreshold = 0.3;
const alarmMinConcern = 0.3;
/** The largest share of hard negatives the chosen threshold may flag in cross-validation. */
const maxFalsePositiveRate = 0.04;

export const modelPath = new URL("../src/safeguarding/classifier-model.json", import.meta.url);

function conversationOf(item: LabelledCase): ChatMessage[] {
  return item.messages ?? [{ role: "user", content: item.text ?? "" }];
}

export function trainingDataHash(cases: readonly LabelledCase[]): string {
  const hash = createHash("sha256");
  for (const item of cases) hash.update(JSON.stringify([item.id, item.text, item.messages, item.expected]));
  return hash.digest("hex");
}

/** Features per case, kept so cross-validation extracts each case's features once rather than once per fold. */
const featureCache = new WeakMap<LabelledCase, string[]>();

function cachedFeaturesOf(item: LabelledCase): string[] {
  let features = featureCache.get(item);
  if (!features) featureCache.set(item, (features = featuresOf(classifierInput(conversationOf(item)))));
  return features;
}

export function examplesOf(cases: readonly LabelledCase[]): Example[] {
  return cases.map((item) => {
    const category = item.expected.category ?? noConcern;
    return {
      features: cachedFeaturesOf(item),
      label: classifierClasses.indexOf(category as (typeof classifierClasses)[number]),
      high: item.expected.category === null ? null : item.expected.severity === "high" ? 1 : 0,
    };
  });
}

/** A small deterministic generator, so shuffles (and so models) are reproducible. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export function train(
  examples: readonly Example[],
  vocabulary: ReadonlySet<string>,
  { epochs, learningRate, l2, averageFrom, harmlessWeight }: TrainingSettings = trainingSettings,
): Omit<ClassifierModel, "trainedOn" | "threshold" | "highThreshold" | "alarmThreshold" | "alarmMinConcern"> {
  const classCount = classifierClasses.length;
  // Features are interned to dense ids once, so each step works on typed arrays rather than string-keyed maps.
  const idOf = new Map<string, number>();
  const encoded = examples.map((example) => {
    const ids: number[] = [];
    for (const feature of example.features) {
      if (!vocabulary.has(feature)) continue;
      let id = idOf.get(feature);
      if (id === undefined) idOf.set(feature, (id = idOf.size));
      ids.push(id);
    }
    return Int32Array.from(ids);
  });
  const featureCount = idOf.size;
  const weights = new Float64Array(featureCount * classCount);
  const severityWeights = new Float64Array(featureCount);
  /** The order features were first updated in, which is the order they are written out in. */
  const touched = new Uint8Array(featureCount);
  const touchOrder: number[] = [];
  const severityTouched = new Uint8Array(featureCount);
  const severityTouchOrder: number[] = [];
  const alarmWeights = new Float64Array(featureCount);
  const highCategoryWeights = new Float64Array(featureCount * classCount);
  const highCategoryBias = new Float64Array(classCount);
  const bias = new Float64Array(classCount);
  let severityBias = 0;
  let alarmBias = 0;
  const random = seededRandom(20261122);
  const order = examples.map((_, index) => index);
  const scores = new Array<number>(classCount);

  const tensors = [weights, severityWeights, alarmWeights, highCategoryWeights, bias, highCategoryBias];
  const sums = tensors.map((tensor) => new Float64Array(tensor.length));
  const scalarSums = [0, 0];
  let averaged = 0;
  for (let epoch = 0; epoch < epochs; epoch += 1) {
    for (let index = order.length - 1; index > 0; index -= 1) {
      const swap = Math.floor(random() * (index + 1));
      [order[index], order[swap]] = [order[swap]!, order[index]!];
    }
    const rate = learningRate / (1 + epoch * 0.1);
    const decay = 1 - rate * l2;
    for (const exampleIndex of order) {
      const example = examples[exampleIndex]!;
      const features = encoded[exampleIndex]!;
      for (let classIndex = 0; classIndex < classCount; classIndex += 1)
        scores[classIndex] = bias[classIndex]!;
      let severityScore = severityBias;
      let alarmScore = alarmBias;
      for (const feature of features) {
        const row = feature * classCount;
        for (let classIndex = 0; classIndex < classCount; classIndex += 1)
          scores[classIndex]! += weights[row + classIndex]!;
        severityScore += severityWeights[feature]!;
        alarmScore += alarmWeights[feature]!;
      }
      const probabilities = softmax(scores);
      const high = sigmoid(severityScore);
      const step = example.high === null ? rate * harmlessWeight : rate;
      const alarmGradient = sigmoid(alarmScore) - (example.high === 1 ? 1 : 0);
      alarmBias -= step * alarmGradient;
      for (const feature of features)
        alarmWeights[feature] = alarmWeights[feature]! * decay - step * alarmGradient;
      for (const feature of features) {
        if (touched[feature] === 0) {
          touched[feature] = 1;
          touchOrder.push(feature);
        }
      }
      for (let classIndex = 0; classIndex < classCount; classIndex += 1) {
        const gradient = probabilities[classIndex]! - (classIndex === example.label ? 1 : 0);
        bias[classIndex]! -= step * gradient;
        for (const feature of features) {
          const at = feature * classCount + classIndex;
          weights[at] = weights[at]! * decay - step * gradient;
        }
      }
      if (example.high === 1) {
        // The high-category head: which category, among high-severity disclosures only.
        for (let classIndex = 0; classIndex < classCount; classIndex += 1)
          scores[classIndex] = classIndex === 0 ? -Infinity : highCategoryBias[classIndex]!;
        for (const feature of features) {
          const row = feature * classCount;
          for (let classIndex = 1; classIndex < classCount; classIndex += 1)
            scores[classIndex]! += highCategoryWeights[row + classIndex]!;
        }
        const highProbabilities = softmax(scores);
        for (let classIndex = 1; classIndex < classCount; classIndex += 1) {
          const gradient = highProbabilities[classIndex]! - (classIndex === example.label ? 1 : 0);
          highCategoryBias[classIndex]! -= rate * gradient;
          for (const feature of features) {
            const at = feature * classCount + classIndex;
            highCategoryWeights[at] = highCategoryWeights[at]! * decay - rate * gradient;
          }
        }
      }
      if (example.high !== null) {
        const gradient = high - example.high;
        severityBias -= rate * gradient;
        for (const feature of features) {
          if (severityTouched[feature] === 0) {
            severityTouched[feature] = 1;
            severityTouchOrder.push(feature);
          }
          severityWeights[feature] = severityWeights[feature]! * decay - rate * gradient;
        }
      }
    }
    if (epoch >= averageFrom) {
      averaged += 1;
      tensors.forEach((tensor, index) => {
        const sum = sums[index]!;
        for (let at = 0; at < tensor.length; at += 1) sum[at]! += tensor[at]!;
      });
      scalarSums[0]! += severityBias;
      scalarSums[1]! += alarmBias;
    }
  }
  if (averaged > 0) {
    tensors.forEach((tensor, index) => {
      const sum = sums[index]!;
      for (let at = 0; at < tensor.length; at += 1) tensor[at] = sum[at]! / averaged;
    });
    severityBias = scalarSums[0]! / averaged;
    alarmBias = scalarSums[1]! / averaged;
  }
  const nameOf = [...idOf.keys()];
  /** A class-by-feature matrix as feature → [class, weight] pairs, weights near zero dropped. */
  const sparse = (matrix: Float64Array) => {
    const rows: Record<string, [number, number][]> = {};
    for (const feature of touchOrder) {
      const entries: [number, number][] = [];
      for (let classIndex = 0; classIndex < classCount; classIndex += 1) {
        const weight = matrix[feature * classCount + classIndex]!;
        if (Math.abs(weight) >= 0.01) entries.push([classIndex, round(weight)]);
      }
      if (entries.length > 0) rows[nameOf[feature]!] = entries;
    }
    return rows;
  };
  return {
    classes: classifierClasses,
    bias: [...bias].map(round),
    weights: sparse(weights),
    severityBias: round(severityBias),
    alarmBias: round(alarmBias),
    highCategoryBias: [...highCategoryBias].map(round),
    // Its "no concern" column is never trained, so stays zero and is dropped like any weight near zero.
    highCategoryWeights: sparse(highCategoryWeights),
    alarmWeights: Object.fromEntries(
      touchOrder
        .filter((feature) => Math.abs(alarmWeights[feature]!) >= 0.01)
        .map((feature) => [nameOf[feature]!, round(alarmWeights[feature]!)]),
    ),
    severityWeights: Object.fromEntries(
      severityTouchOrder
        .filter((feature) => Math.abs(severityWeights[feature]!) >= 0.01)
        .map((feature) => [nameOf[feature]!, round(severityWeights[feature]!)]),
    ),
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

export function vocabularyOf(examples: readonly Example[]): Set<string> {
  const counts = new Map<string, number>();
  for (const example of examples)
    for (const feature of example.features) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  return new Set([...counts].filter(([, count]) => count >= minFeatureCount).map(([feature]) => feature));
}

/** Five-fold cross-validation on the training data: the threshold with the best recall under the false-positive cap. */
function chooseThreshold(examples: readonly Example[]): number {
  const folds = 5;
  const predictions: { label: number; predicted: number; probability: number }[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const trainingSet = examples.filter((_, index) => index % folds !== fold);
    const testSet = examples.filter((_, index) => index % folds === fold);
    const vocabulary = vocabularyOf(trainingSet);
    const model = train(trainingSet, vocabulary);
    for (const example of testSet) {
      const { probabilities } = score(model, example.features);
      let predicted = 1;
      for (let index = 2; index < probabilities.length; index += 1)
        if (probabilities[index]! > probabilities[predicted]!) predicted = index;
      predictions.push({ label: example.label, predicted, probability: 1 - probabilities[0]! });
    }
  }
  const negatives = predictions.filter((prediction) => prediction.label === 0).length;
  const disclosures = predictions.length - negatives;
  // If no threshold keeps false positives under the cap, the one with the fewest false positives is taken.
  let best = { threshold: 0.9, recall: -1, falsePositiveRate: 1 };
  for (let step = 0; step <= 40; step += 1) {
    const threshold = step < 30 ? 0.2 + step * 0.025 : 0.95 + (step - 30) * 0.0045;
    const flagged = predictions.filter(
      (prediction) => prediction.predicted !== 0 && prediction.probability >= threshold,
    );
    const falsePositiveRate = flagged.filter((prediction) => prediction.label === 0).length / negatives;
    const found = flagged.filter((prediction) => prediction.label === prediction.predicted).length;
    const recall = found / disclosures;
    const underCap = falsePositiveRate <= maxFalsePositiveRate;
    const bestUnderCap = best.falsePositiveRate <= maxFalsePositiveRate;
    if (
      (underCap && (!bestUnderCap || recall > best.recall)) ||
      (!underCap && !bestUnderCap && falsePositiveRate < best.falsePositiveRate)
    )
      best = { threshold, recall, falsePositiveRate };
  }
  console.log(
    `cross-validated: threshold ${best.threshold.toFixed(3)}, classifier alone finds ${(best.recall * 100).toFixed(1)}% ` +
      `with ${(best.falsePositiveRate * 100).toFixed(1)}% false positives (cap ${maxFalsePositiveRate * 100}%)`,
  );
  return round(best.threshold);
}

export async function trainSafeguardingClassifier(): Promise<ClassifierModel> {
  const cases = await loadLabelledCases("development");
  const examples = examplesOf(cases);
  const threshold = chooseThreshold(examples);
  const trained = train(examples, vocabularyOf(examples));
  return {
    trainedOn: trainingDataHash(cases),
    threshold,
    highThreshold,
    alarmThreshold,
    alarmMinConcern,
    ...trained,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const model = await trainSafeguardingClassifier();
  await writeFile(modelPath, `${JSON.stringify(model)}\n`);
  console.log(`wrote ${modelPath.pathname}: ${Object.keys(model.weights).length} features`);
}
