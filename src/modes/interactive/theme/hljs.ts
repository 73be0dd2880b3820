// highlight.js with its common grammars, alone in this module so the bundle gives it a chunk of its
// own: highlight.ts requires it on the first highlighted block, and start-up never parses it.
// A plain require keeps its typings (which pull in the DOM library) out of the type check.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hljs: unknown = require("highlight.js/lib/common");

export default hljs;
