import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { citedPaths, citingDocuments, missingPaths } from '../../scripts/check-doc-paths.mjs';

// Decision 059: a record or the README that cites a file names one that exists today.
describe('paths cited by the decision records and the README', () => {
  it('all exist', () => {
    expect(missingPaths()).toEqual([]);
  });

  it('checks the README and every record', () => {
    const documents = citingDocuments();
    expect(documents[0]).toBe('README.md');
    expect(documents).toContain('docs/decisions/001-one-package-two-processes.md');
  });

  it('reads backquoted paths and bare file paths, not prose, patterns, build output or longer paths', () => {
    const markdown = [
      'See `gateway/src/db/index.ts:12`, (gateway/src/lib/push.ts) and tests/web/forms.test.ts.',
      'Both app/ and gateway/ stay; `tests/security/web*.test.ts`, `gateway/src/routes/<resource>/`.',
      '`contract/dist/index.js`, `build/server/main.js`, `@custom-room/contract/constants`, `docs/decisions/`.',
    ].join('\n');
    expect(citedPaths(markdown)).toEqual([
      'gateway/src/db/index.ts',
      'docs/decisions/',
      'gateway/src/lib/push.ts',
      'tests/web/forms.test.ts',
    ]);
  });
});

describe('the index of decision records', () => {
  it('lists every record once, with its status', () => {
    const index = fs.readFileSync('docs/decisions/README.md', 'utf8');
    const records = fs.readdirSync('docs/decisions').filter((f) => /^\d{3}-.*\.md$/.test(f));
    expect(records.length).toBeGreaterThan(60);
    for (const record of records) {
      expect(index.split(`](${record})`).length - 1, record).toBe(1);
      expect(fs.readFileSync(`docs/decisions/${record}`, 'utf8'), record).toMatch(/^Status: .+$/m);
    }
  });
});
