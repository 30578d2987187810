export { compareMatches, roundScore, type AlignMatch, type AlignRequest, type Aligner } from "./aligner.ts";
export {
  createEmbeddingAligner,
  type ConfiguredEmbeddingModel,
  type EmbeddingAlignerOptions,
} from "./embedding-aligner.ts";
export { createMemoryEmbeddingCache, embeddingCacheKey, type EmbeddingCache } from "./embedding-cache.ts";
export { createOfflineAligner, type OfflineAligner } from "./offline-aligner.ts";
