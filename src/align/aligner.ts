/** Matching a teacher's text (lesson plan, objectives, homework brief) to the subtopics it covers. */

export interface AlignRequest {
  /** Must name a subject in the snapshot; the caller answers an unknown subject before asking. */
  subjectId: string;
  /** 1–20,000 characters of free teacher text. */
  text: string;
  /** How many matches to return at most. */
  limit: number;
}

export interface AlignMatch {
  subtopicId: string;
  subtopicName: string;
  topicId: string;
  topicName: string;
  /** Confidence in [0, 1]; matches are returned best first. */
  score: number;
}

export interface Aligner {
  /** Which engine answered, e.g. "offline-bm25" or "embedding:<model>", for logs and evaluation. */
  readonly engine: string;
  align(request: AlignRequest, signal?: AbortSignal): Promise<AlignMatch[]>;
}

/** Rounds a score to 4 decimal places inside [0, 1]. */
export function roundScore(score: number): number {
  if (!Number.isFinite(score) || score <= 0) return 0;
  return Math.round(Math.min(1, score) * 10_000) / 10_000;
}

/** Best first; equal scores in a stable, deterministic order (by subtopic id). */
export function compareMatches(a: AlignMatch, b: AlignMatch): number {
  return b.score - a.score || (a.subtopicId < b.subtopicId ? -1 : a.subtopicId > b.subtopicId ? 1 : 0);
}
