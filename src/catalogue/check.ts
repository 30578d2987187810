import { examBoardById, isOnBoardDomain } from "./boards.ts";
import type { SourceProblem } from "./load-sources.ts";
import type { SpecificationSource } from "./source-schema.ts";

/**
 * Rules that a schema cannot express: uniqueness across files, board-shaped codes and links,
 * and "mapped means every subtopic is mapped and annotated".
 */
export function checkSpecifications(specifications: { file: string; source: SpecificationSource }[]): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const seenSpecIds = new Map<string, string>();
  const seenGenies = new Map<string, string>();

  for (const { file, source } of specifications) {
    const report = (where: string, message: string) => problems.push({ file, path: where, message });
    const board = examBoardById(source.examBoard);

    const earlier = seenSpecIds.get(source.id);
    if (earlier) report("id", `duplicate specification id, also in ${earlier}`);
    seenSpecIds.set(source.id, file);
    const genieOwner = seenGenies.get(source.genie.shortName);
    if (genieOwner) report("genie.shortName", `duplicate genie short name, also in ${genieOwner}`);
    seenGenies.set(source.genie.shortName, file);

    for (const field of ["specificationUrl", "documentUrl"] as const) {
      if (!isOnBoardDomain(source[field], board)) {
        report(field, `must be a link on ${board.domains.join(" or ")}`);
      }
    }

    let codePattern = board.codePattern;
    if (source.codePattern) {
      try {
        codePattern = new RegExp(source.codePattern);
      } catch {
        report("codePattern", "is not a valid regular expression");
      }
    }

    const topicSlugs = new Set<string>();
    const subtopicSlugs = new Set<string>();
    source.topics.forEach((topic, topicIndex) => {
      const topicPath = `topics[${topicIndex}]`;
      if (topicSlugs.has(topic.slug)) report(`${topicPath}.slug`, `duplicate topic slug ${topic.slug}`);
      topicSlugs.add(topic.slug);
      topic.subtopics.forEach((subtopic, subtopicIndex) => {
        const where = `${topicPath}.subtopics[${subtopicIndex}]`;
        if (subtopicSlugs.has(subtopic.slug)) report(`${where}.slug`, `duplicate subtopic slug ${subtopic.slug}`);
        subtopicSlugs.add(subtopic.slug);
        const refs = subtopic.specRefs ?? [];
        if (source.mapping === "mapped") {
          if (refs.length === 0) report(`${where}.specRefs`, "a mapped specification maps every subtopic");
          if (!subtopic.notes) report(`${where}.notes`, "a mapped specification annotates every subtopic");
        } else if (refs.length > 0 || subtopic.notes) {
          report(where, 'carries specRefs or notes but the specification says mapping: "unmapped"');
        }
        refs.forEach((ref, refIndex) => {
          if (!codePattern.test(ref.code)) {
            report(`${where}.specRefs[${refIndex}].code`, `"${ref.code}" is not shaped like a ${board.name} code`);
          }
          if (ref.documentUrl && !isOnBoardDomain(ref.documentUrl, board)) {
            report(`${where}.specRefs[${refIndex}].documentUrl`, `must be a link on ${board.domains.join(" or ")}`);
          }
        });
      });
    });
  }
  return problems;
}
