// Measures the JavaScript the landing route loads (its budget is 150 KB gzip): the entry
// script of dist/index.html, every chunk it imports statically (transitively), and the landing
// page's lazy chunk with its static imports. Run after `vite build`: node scripts/measure-landing-js.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = html.match(/<script type="module"[^>]*src="\/([^"]+)"/)?.[1];
if (!entry) throw new Error('No module script in dist/index.html');

const seen = new Set();
function collect(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(path.join(dist, file), 'utf8');
  // Static imports only: `import ... from "./x.js"` and bare `import "./x.js"`.
  for (const m of code.matchAll(
    /(?:^|[;\s}])import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g,
  )) {
    collect(path.posix.join(path.posix.dirname(file), m[1]));
  }
}
collect(entry);
const landing = readFileSync(path.join(dist, entry), 'utf8').match(/landing-page-[\w-]+\.js/)?.[0];
if (!landing) throw new Error('Landing chunk not referenced from the entry');
collect(path.posix.join(path.posix.dirname(entry), landing));

let total = 0;
for (const file of seen) {
  const gz = gzipSync(readFileSync(path.join(dist, file))).length;
  total += gz;
  console.log(`${(gz / 1000).toFixed(2).padStart(8)} kB  ${file}`);
}
console.log(`${(total / 1000).toFixed(2).padStart(8)} kB  total gzip (budget 150 kB)`);
process.exitCode = total <= 150_000 ? 0 : 1;
