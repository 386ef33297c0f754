// The house's measures (issue 28): line counts per top-level folder, the largest files, the longest
// functions and the import cycles of app/ and gateway/src (type-only imports included). Read by
// `npm run house` (a report) and by tests/house/limits.test.ts (the limits that must hold).
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, dirname, relative, resolve, extname } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
/** The source folders: what ships or runs the product (tests and generated files are not source). */
export const SOURCE_DIRS = ['app', 'gateway/src', 'server', 'contract/src', 'toolkit/src', 'scripts'];
export const ALL_DIRS = [...SOURCE_DIRS, 'tests'];
const EXT = new Set(['.ts', '.tsx', '.mjs', '.js', '.mts', '.cjs']);

export function filesUnder(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (EXT.has(extname(name)) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) out.push(p);
    }
  };
  const abs = join(ROOT, dir);
  if (existsSync(abs)) walk(abs);
  return out.map((p) => relative(ROOT, p)).sort();
}

const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

export function fileLines(files) {
  return files.map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }));
}

function parse(file) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const kind = file.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : file.endsWith('.ts') || file.endsWith('.mts')
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isStringLiteral(node.name)) return node.name.text;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  if (p && ts.isCallExpression(p)) {
    const callee = p.expression.getText().slice(0, 40);
    const first = p.arguments[0];
    const label = first && (ts.isStringLiteral(first) || ts.isPropertyAccessExpression(first)) ? first.getText().slice(0, 50) : '';
    return `(callback of ${callee}${label ? ` ${label}` : ''})`;
  }
  if (p && ts.isExportAssignment(p)) return '(default export)';
  return '(anonymous)';
}

/** Every function-like node with its span in lines. */
export function functionsOf(file) {
  const sf = parse(file);
  const out = [];
  const visit = (node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessor(node) ||
      ts.isSetAccessor(node)
    ) {
      if (node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
        out.push({ file, name: functionName(node), start, lines: end - start + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Relative (and app's "~/") imports, static and dynamic, type-only included, resolved to files. */
export function importsOf(file) {
  const sf = parse(file);
  const specs = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      specs.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      specs.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      specs.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const out = new Set();
  for (const spec of specs) {
    let base;
    if (spec.startsWith('~/')) base = join(ROOT, 'app', spec.slice(2));
    else if (spec.startsWith('.')) base = resolve(join(ROOT, dirname(file)), spec);
    else continue;
    const stem = base.replace(/\.(js|mjs|ts|tsx)$/, '');
    const candidates = [
      base,
      `${stem}.ts`,
      `${stem}.tsx`,
      `${stem}.mjs`,
      `${stem}.js`,
      join(base, 'index.ts'),
      join(base, 'index.tsx'),
      join(base, 'route.tsx'),
    ];
    const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile() && EXT.has(extname(c)));
    if (hit) out.add(relative(ROOT, hit));
  }
  return [...out];
}

/** Strongly connected components of more than one file (or a file importing itself). */
export function cyclesOf(files) {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((g) => files.includes(g))]));
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const sccs = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v).includes(v)) sccs.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) strong(f);
  return sccs;
}

export const LIMITS = { fileLines: 500, functionLines: 150 };
/** Files allowed over the file limit: the endpoint table and the migrations (issue 28). */
export const isExemptFile = (file) => file === 'contract/src/endpoints.ts' || /(^|\/)migrations(\/|\.ts$)/.test(file);

export function measure() {
  const source = SOURCE_DIRS.flatMap(filesUnder);
  const perFolder = ALL_DIRS.map((dir) => {
    const rows = fileLines(filesUnder(dir));
    return { dir, files: rows.length, lines: rows.reduce((a, r) => a + r.lines, 0) };
  });
  const sizes = fileLines(source).sort((a, b) => b.lines - a.lines);
  const functions = source.flatMap(functionsOf).sort((a, b) => b.lines - a.lines);
  const cycles = [...cyclesOf(filesUnder('app')), ...cyclesOf(filesUnder('gateway/src'))];
  return { perFolder, sizes, functions, cycles };
}
