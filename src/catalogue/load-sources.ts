import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { specificationSourceSchema, type SpecificationSource } from "./source-schema.ts";

export interface SourceProblem {
  file: string;
  path: string;
  message: string;
}

export interface LoadedSources {
  specifications: { file: string; source: SpecificationSource }[];
  problems: SourceProblem[];
}

/** A specification file as read from disk, before parsing. */
export interface SourceFile {
  name: string;
  bytes: Buffer;
}

export const defaultCatalogueDirectory = path.resolve(import.meta.dirname, "../../catalogue/specifications");

/**
 * Every `*.yaml` file of the directory, by name. Read synchronously: a few megabytes from the page cache take
 * milliseconds, whereas 179 asynchronous reads queue in libuv's four threads behind the module loader and the
 * database's own reads at start-up, each waiting over 100 ms on a busy machine.
 */
export function readSourceFiles(directory = defaultCatalogueDirectory): SourceFile[] {
  const names = readdirSync(directory)
    .filter((name) => name.endsWith(".yaml"))
    .sort();
  return names.map((name) => ({ name, bytes: readFileSync(path.join(directory, name)) }));
}

/** Parses and schema-validates source files; problems are collected, not thrown. */
export async function parseSourceFiles(files: readonly SourceFile[]): Promise<LoadedSources> {
  // js-yaml (about ten times faster than the `yaml` package on the whole catalogue) is only needed when the files
  // are parsed: a start-up that finds the compiled snapshot cached never loads it.
  const { load: parseYaml } = await import("js-yaml");
  const specifications: LoadedSources["specifications"] = [];
  const problems: SourceProblem[] = [];
  for (const { name, bytes } of files) {
    let raw: unknown;
    try {
      raw = parseYaml(bytes.toString("utf8"));
    } catch (error) {
      problems.push({ file: name, path: "", message: `not valid YAML: ${(error as Error).message}` });
      continue;
    }
    const parsed = specificationSourceSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push({ file: name, path: issue.path.join("."), message: issue.message });
      }
      continue;
    }
    if (`${parsed.data.id}.yaml` !== name) {
      problems.push({ file: name, path: "id", message: `file must be named ${parsed.data.id}.yaml` });
    }
    specifications.push({ file: name, source: parsed.data });
  }
  return { specifications, problems };
}

/** Reads and schema-validates every specification file; problems are collected, not thrown. */
export async function loadSpecificationSources(directory = defaultCatalogueDirectory): Promise<LoadedSources> {
  return parseSourceFiles(readSourceFiles(directory));
}
