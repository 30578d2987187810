import { createHash } from "node:crypto";

/**
 * Where subtopic embeddings are kept between requests and restarts. Keys already name the model and the
 * exact text embedded, so a store needs no knowledge of either and a changed subtopic simply misses.
 */
export interface EmbeddingCache {
  /** The embeddings held for those keys; missing keys are simply absent from the map. */
  get(keys: readonly string[]): Promise<ReadonlyMap<string, readonly number[]>>;
  put(entries: readonly { key: string; embedding: readonly number[] }[]): Promise<void>;
}

/** `<model>:<sha256 of text>`: a new model or edited text never reuses a stale vector. */
export function embeddingCacheKey(modelKey: string, text: string): string {
  return `${modelKey}:${createHash("sha256").update(text).digest("hex")}`;
}

/** Process-local cache, for tests, the CLI and single-instance deployments. */
export function createMemoryEmbeddingCache(): EmbeddingCache & { readonly size: number } {
  const entries = new Map<string, readonly number[]>();
  return {
    get size() {
      return entries.size;
    },
    async get(keys) {
      const found = new Map<string, readonly number[]>();
      for (const key of keys) {
        const embedding = entries.get(key);
        if (embedding) found.set(key, embedding);
      }
      return found;
    },
    async put(newEntries) {
      for (const { key, embedding } of newEntries) entries.set(key, [...embedding]);
    },
  };
}
