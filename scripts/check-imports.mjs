#!/usr/bin/env node
// Module boundaries of the server (apps/server/src/modules/<name>/), checked on every lint and
// in CI. Biome's noRestrictedImports can forbid paths but not say "another module's entry only",
// so this script does it:
//   1. a file of module A imports module B only through B's entry (modules/B/index.ts);
//      files outside the modules (app, services, cli, http …) likewise. Test kits (src/test/)
//      set up rows directly and may reach further.
//   2. the modules do not depend on one another in a circle (edges from non-test files, type-only
//      imports included: a circle of types is still a circle of knowledge).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'apps/server/src');
const modulesDir = path.join(src, 'modules');
const exempt = [path.join(src, 'test') + path.sep];

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) yield full;
  }
}

// `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** The module a file belongs to and its path inside it, or undefined outside modules/<name>/. */
function moduleOf(file) {
  const rel = path.relative(modulesDir, file);
  if (rel.startsWith('..') || !rel.includes(path.sep)) return undefined;
  const [name, ...rest] = rel.split(path.sep);
  return { name, inner: rest.join('/') };
}

const isTest = (file) => /\.(test|faults\.test)\.ts$/.test(file);
const problems = [];
const edges = new Map();

for (const file of files(src)) {
  const from = moduleOf(file);
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (!specifier.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
    const to = moduleOf(target);
    if (!to || to.name === from?.name) continue;
    if (from && !isTest(file)) {
      if (!edges.has(from.name)) edges.set(from.name, new Set());
      edges.get(from.name).add(to.name);
    }
    if (to.inner === 'index.ts') continue;
    if (exempt.some((dir) => file.startsWith(dir))) continue;
    problems.push(
      `${path.relative(root, file)}: imports ${specifier}; use modules/${to.name}/index.ts (its entry) instead`,
    );
  }
}

// Circles between modules: depth-first search, reporting each circle once.
const seen = new Set();
const reported = new Set();
function visit(name, trail) {
  const at = trail.indexOf(name);
  if (at !== -1) {
    const circle = [...trail.slice(at), name];
    const key = [...circle.slice(0, -1)].sort().join(',');
    if (!reported.has(key)) {
      reported.add(key);
      problems.push(`modules depend on one another in a circle: ${circle.join(' → ')}`);
    }
    return;
  }
  if (seen.has(name)) return;
  for (const next of edges.get(name) ?? []) visit(next, [...trail, name]);
  seen.add(name);
}
for (const name of [...edges.keys()].sort()) visit(name, []);

if (problems.length > 0) {
  console.error(`Module boundaries: ${problems.length} problem(s)\n`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
const count = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]).size;
console.log(`Module boundaries: ${count} server modules, entries only, no circles.`);
