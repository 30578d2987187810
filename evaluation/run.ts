import { createModelSetup } from "../src/ai/provider.ts";
import { ConfigError, parseConfig, type Config } from "../src/config.ts";
import { evaluateAlign } from "./align.ts";
import { evaluateSafeguarding } from "./safeguarding.ts";
import { evaluateSearch } from "./search.ts";

/**
 * `npm run eval`: every quality evaluation against its labelled set, then one table. Exits 1 when any figure is
 * under its target (or an evaluation could not run), so CI can gate on it. The composition root for the
 * evaluations: the only place here that reads the environment (AI_* for the embedding aligner).
 */

interface SuiteOutcome {
  name: string;
  passed: boolean;
  seconds: number;
  /** The printed lines that state a figure against its target, under the title of their set. */
  figures: string[];
  error?: string;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

async function runSuite(
  name: string,
  evaluate: (print: (line: string) => void) => Promise<{ passed: boolean }>,
): Promise<SuiteOutcome> {
  const figures: string[] = [];
  let heading: string | null = null;
  const started = performance.now();
  print(`\n== ${name} ==`);
  try {
    const { passed } = await evaluate((line) => {
      print(line);
      // A figure names its target; a plain unindented title (no numbers) says which set the next figures are for.
      if (line.includes("(target")) {
        if (heading !== null) figures.push(heading);
        heading = null;
        figures.push(`  ${line.trim()}`);
      } else if (/^[^\s\d][^\d]*[^:\s]$/.test(line) && !/target/i.test(line)) {
        heading = line.trim();
      }
    });
    return { name, passed, figures, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    print(`  could not run: ${message}`);
    return { name, passed: false, figures, error: message, seconds: (performance.now() - started) / 1000 };
  }
}

function embeddingModelFrom(config: Config) {
  const setup = createModelSetup({
    provider: config.AI_PROVIDER,
    ...(config.AI_MODEL ? { model: config.AI_MODEL } : {}),
    ...(config.AI_BASE_URL ? { baseUrl: config.AI_BASE_URL } : {}),
    ...(config.AI_API_KEY ? { apiKey: config.AI_API_KEY } : {}),
    ...(config.AI_EMBEDDING_MODEL ? { embeddingModel: config.AI_EMBEDDING_MODEL } : {}),
  });
  return setup.kind === "model" ? setup.embeddingModel : null;
}

function table(outcomes: readonly SuiteOutcome[]): string[] {
  const rows = outcomes.map((outcome) => [
    outcome.name,
    outcome.error ? "ERROR" : outcome.passed ? "PASS" : "FAIL",
    `${outcome.seconds.toFixed(1)} s`,
  ]);
  const headings = ["evaluation", "result", "time"];
  const widths = headings.map((heading, column) =>
    Math.max(heading.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ");
  return [line(headings), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)];
}

async function main(): Promise<number> {
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`syllabi eval: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const embeddingModel = embeddingModelFrom(config);

  const outcomes = [
    await runSuite("catalogue search", evaluateSearch),
    await runSuite("alignment", (output) => evaluateAlign(output, { embeddingModel })),
    await runSuite("safeguarding", evaluateSafeguarding),
  ];

  print("\n== summary ==");
  table(outcomes).forEach(print);
  for (const outcome of outcomes) {
    print(`\n${outcome.name}:`);
    for (const figure of outcome.figures) print(`  ${figure}`);
    if (outcome.error) print(`  error: ${outcome.error}`);
  }
  const failed = outcomes.filter((outcome) => !outcome.passed);
  print(
    failed.length === 0
      ? "\nEvery figure meets its target."
      : `\nUnder target: ${failed.map((outcome) => outcome.name).join(", ")}.`,
  );
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
