// Default result limits of the search tools: shared by the tools and the schema text that names them.

export const DEFAULT_GREP_LIMIT = 100;
export const DEFAULT_FIND_LIMIT = 1000;
export const DEFAULT_LS_LIMIT = 500;
