#!/usr/bin/env node
// `npm run house`: the house's measures (issue 28) — lines per folder, the largest files, the longest
// functions, the import cycles, and how many hold the limits. Add --json for a machine-readable copy.
import { LIMITS, isExemptFile, measure } from './lib/house.mjs';

const { perFolder, sizes, functions, cycles } = measure();
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ perFolder, largest: sizes.slice(0, 10), longest: functions.slice(0, 10), cycles }, null, 2));
} else {
  console.log('lines per top-level folder');
  for (const r of perFolder) console.log(`  ${r.dir.padEnd(14)} ${String(r.files).padStart(4)} files ${String(r.lines).padStart(7)} lines`);
  console.log('\nthe largest 10 source files');
  for (const r of sizes.slice(0, 10)) console.log(`  ${String(r.lines).padStart(5)}  ${r.file}`);
  console.log('\nthe longest 10 source functions');
  for (const f of functions.slice(0, 10)) console.log(`  ${String(f.lines).padStart(5)}  ${f.file}:${f.start} ${f.name}`);
  const overFiles = sizes.filter((r) => r.lines > LIMITS.fileLines && !isExemptFile(r.file));
  const overFns = functions.filter((f) => f.lines > LIMITS.functionLines);
  console.log(`\nfiles over ${LIMITS.fileLines} lines (endpoints and migrations exempt): ${overFiles.length}`);
  for (const r of overFiles) console.log(`  ${r.lines}  ${r.file}`);
  console.log(
    `functions over ${LIMITS.functionLines} lines: ${overFns.length}; over 80 lines: ${functions.filter((f) => f.lines > 80).length}`,
  );
  for (const f of overFns) console.log(`  ${f.lines}  ${f.file}:${f.start} ${f.name}`);
  console.log(`import cycles in app/ and gateway/src (type-only included): ${cycles.length}`);
  for (const c of cycles) console.log(`  ${c.join(' <-> ')}`);
}
