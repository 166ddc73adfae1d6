import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** CPU time the process has used (user + system), in seconds; 0 once it is gone. Linux only. */
export async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name, in parentheses, may hold spaces: the fields are counted after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11] ?? 0);
  const system = Number(fields[12] ?? 0);
  return (user + system) / TICKS_PER_SECOND;
}

/** The process's resident memory, MB; 0 once it is gone. */
export async function residentMegabytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kilobytes === undefined ? 0 : Number(kilobytes) / 1024;
}

/**
 * What the process's resident memory is made of, MB: its own pages (for Node: V8's heap, buffers
 * and native allocations), mapped files (the binary and its libraries), shared memory.
 */
export async function memoryParts(
  pid: number | undefined,
): Promise<{ anonymousMb: number; fileMb: number; sharedMb: number }> {
  const status = pid === undefined ? '' : await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const megabytes = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { anonymousMb: megabytes('RssAnon'), fileMb: megabytes('RssFile'), sharedMb: megabytes('RssShmem') };
}

/** CPU use of some processes between two moments, as a share of one core. */
export class CpuMeter {
  private constructor(
    private readonly pids: readonly (number | undefined)[],
    private readonly startedAt: number,
    private readonly startSeconds: number,
  ) {}

  static async start(pids: readonly (number | undefined)[]): Promise<CpuMeter> {
    return new CpuMeter(pids, Date.now(), await CpuMeter.total(pids));
  }

  /** Percent of one core used since the start. */
  async percentOfCore(): Promise<number> {
    const seconds = (await CpuMeter.total(this.pids)) - this.startSeconds;
    return (seconds / Math.max(0.001, (Date.now() - this.startedAt) / 1000)) * 100;
  }

  private static async total(pids: readonly (number | undefined)[]): Promise<number> {
    return (await Promise.all(pids.map(cpuSeconds))).reduce((sum, seconds) => sum + seconds, 0);
  }
}
