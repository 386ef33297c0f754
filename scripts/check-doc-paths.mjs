// Lists the repository paths the decision records and the README cite that do not exist (decision 059).
// A cited path is a backquoted or bare `app/…`, `gateway/…`, `server/…`, `contract/…`, `toolkit/…`,
// `scripts/…`, `tests/…` or `docs/…`; bare ones only when they end in a file extension, so prose such as
// "app/ and gateway/" is not read as a path. Patterns (`*`, `{…}`, `<…>`, `…`) and build outputs (`dist/`)
// are not checked. Usage: node scripts/check-doc-paths.mjs (exit 1 when a path is missing).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PREFIX = '(?:app|gateway|server|contract|toolkit|scripts|tests|docs)/';
// Not inside a longer path (`build/server/main.js`, `@custom-room/contract/constants`) or a word.
const START = '(?<![\\w./@~$-])';
const QUOTED_PATH = new RegExp(`${START}${PREFIX}[\\w.$/*{}<>…,-]*`, 'g');
const BARE_PATH = new RegExp(`${START}${PREFIX}[\\w.$/-]*\\.[a-z]{1,4}\\b`, 'g');
const PATTERN = /[*{}<>…]/;
// A record that tells what was before names the paths of then (035's context: what the contract replaced).
// Each is accepted in that record only, and only while the path it became exists.
const FORMER_PATHS = [
  { document: 'docs/decisions/035-contract-package-and-endpoint-table.md', cited: 'gateway/src/schemas', now: 'contract/src/schemas' },
  {
    document: 'docs/decisions/035-contract-package-and-endpoint-table.md',
    cited: 'gateway/src/lib/points-systems.ts',
    now: 'contract/src/points-systems.ts',
  },
  {
    document: 'docs/decisions/035-contract-package-and-endpoint-table.md',
    cited: 'app/utils/gateway-schemas.ts',
    now: 'contract/src/answers.ts',
  },
  {
    document: 'docs/decisions/061-web-folder-routes-and-intent-tables.md',
    cited: 'app/routes/admin.$tournamentId.stages.$stageId.tsx',
    now: 'app/routes/admin.$tournamentId.stages.$stageId/route.tsx',
  },
];

/** The documents checked: every decision record, their index, and the README. */
export function citingDocuments(root = ROOT) {
  const decisions = path.join(root, 'docs/decisions');
  const records = readdirSync(decisions)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join('docs/decisions', name));
  return ['README.md', ...records];
}

/** Every path a Markdown text cites, once each, in order of first mention. */
export function citedPaths(markdown) {
  const found = new Set();
  for (const span of markdown.matchAll(/`([^`\n]+)`/g)) {
    for (const [match] of span[1].matchAll(QUOTED_PATH)) found.add(cleanPath(match));
  }
  const prose = markdown.replace(/`[^`\n]+`/g, ' ');
  for (const [match] of prose.matchAll(BARE_PATH)) found.add(cleanPath(match));
  return [...found].filter((cited) => cited !== '' && !PATTERN.test(cited) && !/(^|\/)dist(\/|$)/.test(cited));
}

// A path at the end of a sentence or list keeps none of the punctuation after it.
function cleanPath(match) {
  return match.replace(/[.,]+$/, '');
}

/** `{ document, cited }` for each cited path missing from the tree under root. */
export function missingPaths(root = ROOT) {
  const missing = [];
  for (const document of citingDocuments(root)) {
    const text = readFileSync(path.join(root, document), 'utf8');
    for (const cited of citedPaths(text)) {
      if (!existsSync(path.join(root, cited)) && !isFormerPath(root, document, cited)) missing.push({ document, cited });
    }
  }
  return missing;
}

function isFormerPath(root, document, cited) {
  return FORMER_PATHS.some((former) => former.document === document && former.cited === cited && existsSync(path.join(root, former.now)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = missingPaths();
  for (const { document, cited } of missing) console.log(`${document}: ${cited}`);
  if (missing.length > 0) {
    console.error(`${missing.length} cited paths do not exist`);
    process.exit(1);
  }
  console.log('every cited path exists');
}
