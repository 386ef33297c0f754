// The Dockerfile and its build context as scripts/check-image.mjs reads them without Docker: the
// Dockerfile parsed into stages and instructions, and the context copied as .dockerignore filters it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A Dockerfile instruction this check does not replay: the image cannot be checked without Docker. */
export class Unsupported extends Error {}

// ---------- 1. the Dockerfile ----------

export function parseDockerfile(text) {
  const lines = [];
  let current = '';
  for (const raw of text.split('\n')) {
    if (!current && /^\s*(#|$)/.test(raw)) continue;
    if (/^\s*#/.test(raw)) continue; // a comment inside a continued instruction
    if (/\\\s*$/.test(raw)) current += raw.replace(/\\\s*$/, ' ');
    else {
      lines.push((current + raw).trim());
      current = '';
    }
  }
  const stages = [];
  for (const line of lines) {
    const [, keyword, rest] = /^(\w+)\s+([\s\S]*)$/.exec(line) ?? [];
    if (!keyword) throw new Unsupported(`cannot read Dockerfile line: ${line}`);
    const op = keyword.toUpperCase();
    if (op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest.trim());
      stages.push({ image: m[1], name: m[2] ?? String(stages.length), steps: [] });
    } else if (!stages.length) throw new Unsupported(`${op} before FROM`);
    else stages.at(-1).steps.push({ op, rest: rest.trim() });
  }
  return stages;
}

/** `--a=b --c=d rest` → { options: {a: 'b', c: 'd'}, rest } */
export function flags(text) {
  const options = {};
  let rest = text;
  for (let m; (m = /^--([\w-]+)(?:=(\S+))?\s+/.exec(rest)); rest = rest.slice(m[0].length)) options[m[1]] = m[2] ?? true;
  return { options, rest };
}
export function words(text) {
  if (text.startsWith('[')) return JSON.parse(text);
  return text.split(/\s+/).filter(Boolean);
}
export function parseEnv(text) {
  const env = {};
  const re = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g;
  if (!/=/.test(text.split(/\s+/)[0])) {
    const [key, ...value] = text.split(/\s+/); // legacy `ENV KEY value`
    env[key] = value.join(' ');
    return env;
  }
  for (let m; (m = re.exec(text));) env[m[1]] = m[2].replace(/^(["'])([\s\S]*)\1$/, '$2');
  return env;
}
export const duration = (s) => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(s ?? '');
  return m ? Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2]] : undefined;
};

// ---------- 2. the build context (.dockerignore) ----------

export function ignoreRules() {
  const file = path.join(ROOT, '.dockerignore');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = path.posix.normalize((negate ? l.slice(1) : l).replace(/^\/+/, ''));
      const source = pattern
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\.\*\//g, '(?:.*/)?');
      return { negate, re: new RegExp(`^${source}(?:/.*)?$`), pattern };
    });
}
/** Docker's rule: patterns are anchored at the context root, match a path or a parent of it, the last match wins. */
export function ignored(rules, rel) {
  let out = false;
  for (const rule of rules) if (rule.re.test(rel)) out = !rule.negate;
  return out;
}
export function copyContext(rules, rel, dest) {
  const src = path.join(ROOT, rel);
  const stat = fs.lstatSync(src);
  if (stat.isDirectory()) {
    fs.mkdirSync(dest, { recursive: true });
    for (const entry of fs.readdirSync(src)) {
      const child = rel === '.' ? entry : `${rel}/${entry}`;
      const reincluded = rules.some((r) => r.negate && r.pattern.startsWith(`${child}/`));
      if (ignored(rules, child) && !reincluded) continue;
      copyContext(rules, child, path.join(dest, entry));
    }
  } else if (!ignored(rules, rel)) {
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.cpSync(src, dest, { preserveTimestamps: true, verbatimSymlinks: true });
  }
}
