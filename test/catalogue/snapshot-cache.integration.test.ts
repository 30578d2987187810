import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogueInvalidError, loadCatalogue } from "../../src/catalogue/load.ts";
import { defaultCatalogueDirectory } from "../../src/catalogue/load-sources.ts";

let workspace: string;
let sources: string;
let cachePath: string;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "syllabi-snapshot-cache-"));
  sources = path.join(workspace, "specifications");
  cachePath = path.join(workspace, "cache", "catalogue-snapshot.json");
  await mkdir(sources);
  const names = (await readdir(defaultCatalogueDirectory)).filter((name) => name.endsWith(".yaml")).sort();
  for (const name of names.slice(0, 4)) {
    await copyFile(path.join(defaultCatalogueDirectory, name), path.join(sources, name));
  }
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

/** Rewrites the cached entry's subjects, keeping its key line: what a later load returns shows whether it read it. */
async function tamperWithCache(change: (subjects: { name: string }[]) => void): Promise<void> {
  const text = await readFile(cachePath, "utf8");
  const newline = text.indexOf("\n");
  const subjects = JSON.parse(text.slice(newline + 1)) as { name: string }[];
  change(subjects);
  await writeFile(cachePath, `${text.slice(0, newline)}\n${JSON.stringify(subjects)}`);
}

async function firstYaml(): Promise<string> {
  return path.join(sources, (await readdir(sources)).sort()[0]!);
}

describe("the compiled snapshot cache", () => {
  it("gives back exactly what compiling gives, and is read instead of the sources when nothing changed", async () => {
    const compiled = await loadCatalogue(sources, { cachePath: null });
    const missed = await loadCatalogue(sources, { cachePath });
    const hit = await loadCatalogue(sources, { cachePath });
    for (const snapshot of [missed, hit]) {
      expect(snapshot.subjects).toEqual(compiled.subjects);
      expect([...snapshot.subtopicById.keys()]).toEqual([...compiled.subtopicById.keys()]);
      expect([...snapshot.subjectByGenie.keys()]).toEqual([...compiled.subjectByGenie.keys()]);
      expect(Object.isFrozen(snapshot.subjects[0]!.topics[0]!.subtopics[0])).toBe(true);
    }

    await tamperWithCache((subjects) => (subjects[0]!.name = "Read from the cache"));
    expect((await loadCatalogue(sources, { cachePath })).subjects[0]!.name).toBe("Read from the cache");
  });

  it("compiles afresh when a source file changes, never serving the older entry", async () => {
    await loadCatalogue(sources, { cachePath });
    await tamperWithCache((subjects) => (subjects[0]!.name = "Stale"));
    const file = await firstYaml();
    const original = await readFile(file, "utf8");
    await writeFile(file, `${original}\n# an edit\n`);
    const snapshot = await loadCatalogue(sources, { cachePath });
    expect(snapshot.subjects.map((subject) => subject.name)).not.toContain("Stale");
    expect(snapshot.subjects).toEqual((await loadCatalogue(sources, { cachePath: null })).subjects);
    await writeFile(file, original);
  });

  it("refuses an invalid catalogue even when an entry for the previous, valid files exists", async () => {
    await loadCatalogue(sources, { cachePath });
    const file = await firstYaml();
    const original = await readFile(file, "utf8");
    await writeFile(file, original.replace(/^name: .*$/m, "name: X"));
    await expect(loadCatalogue(sources, { cachePath })).rejects.toBeInstanceOf(CatalogueInvalidError);
    await writeFile(file, original);
  });

  it("ignores an entry it cannot read", async () => {
    const compiled = await loadCatalogue(sources, { cachePath: null });
    await writeFile(cachePath, "not a key\n{");
    expect((await loadCatalogue(sources, { cachePath })).subjects).toEqual(compiled.subjects);
    const text = await readFile(cachePath, "utf8");
    await writeFile(cachePath, `${text.slice(0, text.indexOf("\n"))}\n{ broken`);
    expect((await loadCatalogue(sources, { cachePath })).subjects).toEqual(compiled.subjects);
  });
});
