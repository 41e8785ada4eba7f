import { readdir, readFile } from 'node:fs/promises';

/** A process's command name and CPU seconds (user + system) so far, from /proc (100 ticks a second). */
async function processStat(pid: number): Promise<{ name: string; cpuSeconds: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100,
  };
}

/** CPU seconds (user + system) a process has used so far (Linux). */
export async function processCpuSeconds(pid: number): Promise<number> {
  return (await processStat(pid)).cpuSeconds;
}

/**
 * CPU seconds used so far by every process of that name, each by pid (a process that exits between
 * two readings takes what it used with it: compare the pids).
 */
export async function cpuSecondsByName(name: string): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = await processStat(pid).catch(() => null);
    if (stat?.name === name) found.set(pid, stat.cpuSeconds);
  }
  return found;
}

/** CPU seconds the machine's CPUs together have been busy (not idle, not waiting for the disk). */
export async function machineBusySeconds(): Promise<number> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0] ?? '';
  const [user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  return (
    ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100
  );
}
