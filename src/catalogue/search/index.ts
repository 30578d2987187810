export {
  createCatalogueSearch,
  searchResultTypes,
  type CatalogueSearch,
  type CatalogueSearchQuery,
  type CatalogueSearchResult,
  type SearchResultType,
} from "./catalogue-search.ts";
