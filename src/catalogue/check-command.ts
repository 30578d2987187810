import { examBoardById } from "./boards.ts";
import { checkSpecifications } from "./check.ts";
import { loadSpecificationSources } from "./load-sources.ts";

/** `syllabi catalogue check`: validates every file and prints counts. Returns the process exit code. */
export async function runCatalogueCheck(write: (line: string) => void, directory?: string): Promise<number> {
  const { specifications, problems } = await loadSpecificationSources(directory);
  problems.push(...checkSpecifications(specifications));

  const byGroup = new Map<string, { specifications: number; mapped: number }>();
  let subtopics = 0;
  let mappedSubtopics = 0;
  let notes = 0;
  let topics = 0;
  for (const { source } of specifications) {
    const group = `${source.qualification} · ${examBoardById(source.examBoard).name}`;
    const counts = byGroup.get(group) ?? { specifications: 0, mapped: 0 };
    counts.specifications += 1;
    if (source.mapping === "mapped") counts.mapped += 1;
    byGroup.set(group, counts);
    topics += source.topics.length;
    for (const topic of source.topics) {
      for (const subtopic of topic.subtopics) {
        subtopics += 1;
        if (subtopic.specRefs?.length) mappedSubtopics += 1;
        if (subtopic.notes) notes += 1;
      }
    }
  }

  write("qualification · board               specifications  mapped");
  for (const [group, counts] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) {
    write(`${group.padEnd(36)}${String(counts.specifications).padStart(14)}${String(counts.mapped).padStart(8)}`);
  }
  const mappedSpecs = specifications.filter(({ source }) => source.mapping === "mapped").length;
  write(
    `total: ${specifications.length} specifications (${mappedSpecs} mapped), ${topics} topics, ` +
      `${subtopics} subtopics (${mappedSubtopics} mapped), ${notes} with knowledge notes`,
  );
  if (problems.length > 0) {
    for (const problem of problems) write(`✗ ${problem.file} ${problem.path}: ${problem.message}`);
    write(`${problems.length} problem(s) found`);
    return 1;
  }
  write("catalogue ok");
  return 0;
}
