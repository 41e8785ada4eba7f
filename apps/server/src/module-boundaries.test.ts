import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const checker = path.join(repoRoot, 'scripts/check-imports.mjs');

function check(root?: string) {
  const result = spawnSync(process.execPath, [checker, ...(root ? ['--root', root] : [])], {
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const docs = (exceptions = '') => `# Architecture

<!-- table-owners:start -->
| tables | owner |
| --- | --- |
| \`participants\` | participants |
| \`studies\` | studies |
<!-- table-owners:end -->

<!-- table-exceptions:start -->
| file | reads | why |
| --- | --- | --- |
${exceptions}<!-- table-exceptions:end -->
`;

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A small tree laid out like this repository: two modules, two tables, the docs' two tables. */
function tree(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), 'module-boundaries-'));
  roots.push(root);
  const all: Record<string, string> = {
    'apps/server/src/db/schema/index.ts':
      "export * from './participants.js';\nexport * from './studies.js';\n",
    'apps/server/src/db/schema/participants.ts':
      "export const participants = pgTable('participants', {});\n",
    'apps/server/src/db/schema/studies.ts': "export const studies = pgTable('studies', {});\n",
    'apps/server/src/modules/participants/index.ts': 'export {};\n',
    'apps/server/src/modules/studies/index.ts': 'export {};\n',
    'docs/architecture.md': docs(),
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const studiesRepo = 'apps/server/src/modules/studies/studies.repository.ts';

describe('the module boundary check (scripts/check-imports.mjs)', () => {
  it('passes on this repository', () => {
    const { status, output } = check();
    expect(output).toContain('each module on its own tables');
    expect(status).toBe(0);
  });

  it('passes a module that names only its own tables', () => {
    const root = tree({
      [studiesRepo]: "import { studies } from '../../db/schema/index.js';\n",
    });
    expect(check(root).status).toBe(0);
  });

  it("fails a module that imports another module's table, naming the owner", () => {
    const root = tree({
      [studiesRepo]:
        "import { studies, type participants as p } from '../../db/schema/index.js';\n",
    });
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain(
      'apps/server/src/modules/studies/studies.repository.ts: uses table participants, owned by the participants module',
    );
  });

  it('fails a module that imports the whole schema', () => {
    const root = tree({ [studiesRepo]: "import * as schema from '../../db/schema/index.js';\n" });
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain('imports the whole schema');
  });

  it('lets a listed exception read the table, never write it', () => {
    const exception =
      '| `studies/studies.repository.ts` | `participants` | the count beside each study |\n';
    const reads = tree({
      'docs/architecture.md': docs(exception),
      [studiesRepo]:
        "import { participants } from '../../db/schema/index.js';\nconst n = db.select().from(participants);\n",
    });
    expect(check(reads).status).toBe(0);

    const writes = tree({
      'docs/architecture.md': docs(exception),
      [studiesRepo]:
        "import { participants } from '../../db/schema/index.js';\nawait db.update(participants).set({});\n",
    });
    const { status, output } = check(writes);
    expect(status).toBe(1);
    expect(output).toContain('writes participants, owned by participants');
  });

  it('fails a table without an owner, and an exception no longer used', () => {
    const root = tree({
      'apps/server/src/db/schema/studies.ts':
        "export const studies = pgTable('studies', {});\nexport const notes = pgTable('notes', {});\n",
      'docs/architecture.md': docs('| `studies/studies.repository.ts` | `participants` | gone |\n'),
      [studiesRepo]: "import { studies } from '../../db/schema/index.js';\n",
    });
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain('table notes has no owner');
    expect(output).toContain('lists participants, which it no longer uses');
  });
});
