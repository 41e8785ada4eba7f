#!/usr/bin/env node
// Module boundaries of the server (apps/server/src/modules/<name>/), checked on every lint and
// in CI. Biome's noRestrictedImports can forbid paths but not say "another module's entry only",
// so this script does it:
//   1. a file of module A imports module B only through B's entry (modules/B/index.ts);
//      files outside the modules (app, services, cli, http …) likewise. Test kits (src/test/)
//      set up rows directly and may reach further.
//   2. the modules do not depend on one another in a circle (edges from non-test files, type-only
//      imports included: a circle of types is still a circle of knowledge).
//   3. a module names only its own tables from db/schema/: one module owns each table, and the
//      others call its functions. The ownership map and the few read-only exceptions live in
//      docs/architecture.md (two tables between markers), which this script reads, so the map
//      people read is the map that is enforced. Tests, which check stored rows, are exempt.
// `--root <dir>` checks another tree laid out like this repository (the checker's own test).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rootAt = process.argv.indexOf('--root');
const root =
  rootAt !== -1
    ? path.resolve(process.argv[rootAt + 1] ?? '.')
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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

/** The rows of the markdown table between `<!-- name:start -->` and `<!-- name:end -->`. */
function markedTable(text, name) {
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start === -1 || end < start) return undefined;
  return text
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2) // header and separator
    .map((line) =>
      line
        .slice(1, line.lastIndexOf('|'))
        .split('|')
        .map((cell) => cell.trim()),
    );
}

/** The back-quoted names in a cell: "`users`, `sessions`" → ['users', 'sessions']. */
const namesIn = (cell = '') => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

// `import { a, type B, c as d } from '…/db/schema/…'` (also `import type {…}`), and the whole
// schema at once (`import * as schema`), which a module may not do.
const SCHEMA_IMPORT =
  /\bimport\s+(?:type\s+)?(?:\{([^}]*)\}|\*\s+as\s+\w+)\s*from\s*['"]([^'"]+)['"]/g;

function checkTableOwners() {
  const docsFile = path.join(root, 'docs/architecture.md');
  const docs = readFileSync(docsFile, 'utf8');
  const ownerRows = markedTable(docs, 'table-owners');
  const exceptionRows = markedTable(docs, 'table-exceptions') ?? [];
  if (!ownerRows) {
    problems.push('docs/architecture.md: no table-owners table (<!-- table-owners:start -->)');
    return;
  }
  const schemaDir = path.join(src, 'db/schema');
  const modules = new Set(readdirSync(modulesDir).filter((n) => !n.includes('.')));
  const owners = new Map();
  for (const [tablesCell, owner] of ownerRows) {
    if (!modules.has(owner) && owner !== 'platform')
      problems.push(`docs/architecture.md: table owner "${owner}" is not a server module`);
    for (const table of namesIn(tablesCell)) owners.set(table, owner);
  }
  // Every table has an owner, and the map names no table that is gone.
  const tables = new Set();
  for (const file of files(schemaDir)) {
    const text = readFileSync(file, 'utf8');
    for (const [, name] of text.matchAll(/export\s+const\s+(\w+)\s*=\s*pgTable\s*\(/g)) {
      tables.add(name);
      if (!owners.has(name))
        problems.push(
          `${path.relative(root, file)}: table ${name} has no owner in docs/architecture.md`,
        );
    }
  }
  for (const name of owners.keys())
    if (!tables.has(name))
      problems.push(`docs/architecture.md: owns table ${name}, which the schema does not define`);

  // Read-only exceptions: file (under modules/) → tables it may join although another owns them.
  const exceptions = new Map();
  for (const [fileCell, tablesCell, reason] of exceptionRows) {
    const [file] = namesIn(fileCell);
    if (!file || !reason) {
      problems.push(
        `docs/architecture.md: table exception "${fileCell}" needs a file and a reason`,
      );
      continue;
    }
    exceptions.set(file, { tables: new Set(namesIn(tablesCell)), used: new Set() });
  }

  for (const file of files(modulesDir)) {
    if (isTest(file)) continue;
    const from = moduleOf(file);
    if (!from) continue;
    const rel = path.relative(root, file);
    const text = readFileSync(file, 'utf8');
    const exception = exceptions.get(`${from.name}/${from.inner}`);
    for (const [, names, specifier] of text.matchAll(SCHEMA_IMPORT)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(schemaDir + path.sep) && target !== schemaDir) continue;
      if (names === undefined) {
        problems.push(`${rel}: imports the whole schema; import only the module's own tables`);
        continue;
      }
      for (const entry of names.split(',')) {
        const name = entry
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        const owner = owners.get(name);
        if (!owner || owner === from.name) continue;
        if (exception?.tables.has(name)) {
          exception.used.add(name);
          // An exception lets a file read another module's table, never write it.
          const write = new RegExp(`\\.(insert|update|delete)\\(\\s*${name}\\s*\\)`);
          if (write.test(text))
            problems.push(
              `${rel}: writes ${name}, owned by ${owner}; an exception only allows reading it — call the ${owner} module instead`,
            );
          continue;
        }
        problems.push(
          `${rel}: uses table ${name}, owned by the ${owner} module; call modules/${owner}/index.ts instead (or list a read-only exception with its reason in docs/architecture.md)`,
        );
      }
    }
  }
  for (const [file, { tables, used }] of exceptions)
    for (const table of tables)
      if (!used.has(table))
        problems.push(
          `docs/architecture.md: the exception for ${file} lists ${table}, which it no longer uses`,
        );
}

checkTableOwners();

if (problems.length > 0) {
  console.error(`Module boundaries: ${problems.length} problem(s)\n`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
const count = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]).size;
console.log(
  `Module boundaries: ${count} server modules, entries only, no circles, each module on its own tables.`,
);
