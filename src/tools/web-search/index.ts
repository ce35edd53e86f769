export { webSearchTool } from './web-search-tool.js';
export {
  webSearchService,
  type WebSearchBackend,
  type WebSearchHit,
  type WebSearchResponse,
} from './web-search-service.js';
