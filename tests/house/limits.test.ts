// Issue 28: the house keeps its shape. No source file over 500 lines (the endpoint table and the
// migrations aside), no function over 150 lines, no import cycle in app/ or gateway/src (type-only
// imports count), and the gateway's layers point one way: routes -> services -> db.
import { describe, expect, it } from 'vitest';
import { LIMITS, cyclesOf, filesUnder, functionsOf, importsOf, isExemptFile, measure } from '../../scripts/lib/house.mjs';

const { sizes, functions, cycles } = measure();

describe('the house', () => {
  it(`has no source file over ${LIMITS.fileLines} lines`, () => {
    const over = sizes.filter((r) => r.lines > LIMITS.fileLines && !isExemptFile(r.file)).map((r) => `${r.file} (${r.lines})`);
    expect(over).toEqual([]);
  });

  it(`has no function over ${LIMITS.functionLines} lines`, () => {
    const over = functions.filter((f) => f.lines > LIMITS.functionLines).map((f) => `${f.file}:${f.start} ${f.name} (${f.lines})`);
    expect(over).toEqual([]);
  });

  it('has no import cycle in app/ or gateway/src', () => {
    expect(cycles).toEqual([]);
  });

  it('keeps the gateway layers one way: db imports neither services, routes nor lib rules', () => {
    const wrong: string[] = [];
    for (const file of filesUnder('gateway/src/db')) {
      for (const target of importsOf(file)) {
        if (/^gateway\/src\/(services|routes|plugins|lib)\//.test(target)) wrong.push(`${file} -> ${target}`);
      }
    }
    for (const file of filesUnder('gateway/src/services')) {
      for (const target of importsOf(file)) if (/^gateway\/src\/routes\//.test(target)) wrong.push(`${file} -> ${target}`);
    }
    expect(wrong).toEqual([]);
  });

  it('measures what it claims: a cycle and a long function are seen', () => {
    expect(cyclesOf(['tests/house/fixtures/a.ts', 'tests/house/fixtures/b.ts'])).toEqual([
      ['tests/house/fixtures/a.ts', 'tests/house/fixtures/b.ts'],
    ]);
    expect(functionsOf('tests/house/fixtures/c.ts')).toEqual([{ file: 'tests/house/fixtures/c.ts', name: 'three', start: 1, lines: 4 }]);
  });
});
