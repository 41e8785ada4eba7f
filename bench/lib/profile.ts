import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

/** The parts of a V8 .cpuprofile this summary reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Samples this process (the server under test) while `work` runs — the in-process equivalent of
 * `node --cpu-prof`, limited to the load phase so seeding does not drown the request path.
 * Writes the .cpuprofile (open it in Chrome DevTools) and returns its path.
 */
export async function profileDuring(
  file: string,
  work: () => Promise<unknown>,
): Promise<{ file: string; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  let failure: unknown;
  try {
    await work();
  } catch (error) {
    failure = error;
  }
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
  session.disconnect();
  if (failure) throw failure;
  await writeFile(file, JSON.stringify(profile));
  return { file, profile };
}

const frameName = (frame: CpuProfile['nodes'][number]['callFrame']) => {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const url = frame.url.replace(/^file:\/\//, '');
  const modules = url.lastIndexOf('/node_modules/');
  const short =
    modules >= 0
      ? url.slice(modules + '/node_modules/'.length)
      : path.relative(process.cwd(), url) || url;
  return `${name} ${short}:${frame.lineNumber + 1}`;
};

/** The package a frame belongs to (`node_modules/<pkg>`), `app` for our code, `node` for core. */
const packageOf = (frame: CpuProfile['nodes'][number]['callFrame']) => {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : 'native';
  if (url.startsWith('node:')) return 'node';
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return match?.[1] ?? 'app';
};

/**
 * Top functions by self time and by inclusive time (a function counted once per sample even
 * when it recurses), plus self time per package, as shares of all samples.
 */
export function summarize(profile: CpuProfile, top = 12) {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const perPackage = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const leaf = byId.get(id);
    if (!leaf) return;
    const leafName = frameName(leaf.callFrame);
    self.set(leafName, (self.get(leafName) ?? 0) + dt);
    const pkg = packageOf(leaf.callFrame);
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      const name = frameName(node.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
  });
  const rank = (map: Map<string, number>, skip: (name: string) => boolean = () => false) =>
    [...map.entries()]
      .filter(([name]) => !skip(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, t]) => ({ name, share: t / total }));
  // Node's own frames (sockets, streams, event loop) enclose everything; the request path is
  // read from the frames of the app and its packages.
  const structural = (name: string) =>
    !/ (apps|packages|bench)\/|\.m?[jt]s:\d+$/.test(name) || / node:/.test(name);
  return {
    totalMs: total / 1000,
    self: rank(self),
    inclusive: rank(inclusive, structural),
    packages: rank(perPackage),
  };
}

export function printSummary(title: string, summary: ReturnType<typeof summarize>) {
  const pct = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;
  console.log(`\nProfile: ${title} (${summary.totalMs.toFixed(0)} ms sampled)`);
  console.log('  self time by package:');
  for (const { name, share } of summary.packages) console.log(`    ${pct(share)}  ${name}`);
  console.log('  self time:');
  for (const { name, share } of summary.self) console.log(`    ${pct(share)}  ${name}`);
  console.log('  inclusive time:');
  for (const { name, share } of summary.inclusive) console.log(`    ${pct(share)}  ${name}`);
}
