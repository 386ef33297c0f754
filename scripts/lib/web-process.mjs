// How every launcher starts the web server (`npm start`, the image, the e2e and bench stacks, `npm run cluster`):
// node's flags first, then build/server/main.js. Decision 090: a rendered page allocates a few MB; with V8's default
// 16 MB semi-spaces the web process spent a tenth of its CPU in young-generation collections, and 32 MB served 7–11%
// more pages (the room minute's list, page cache off and signed in). Cluster workers (WEB_CONCURRENCY > 1) inherit
// the flags from the process that forks them. It costs up to 32 MB more memory per web process.
import path from 'node:path';

const WEB_NODE_FLAGS = ['--max-semi-space-size=32'];

/** node's arguments for a web server; `extra` are more node flags (a profiler's). */
export function webServerArgs(extra = []) {
  return [...WEB_NODE_FLAGS, ...extra, path.join('build', 'server', 'main.js')];
}
