import { readFile, readdir } from 'node:fs/promises';

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

/** The process and every process it started, and theirs: pids, the process first. Linux only. */
export async function processTree(pid: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The parent's pid is the second field after the command name, which may hold spaces.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(parent)) continue;
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const visit = (id: number) => {
    tree.push(id);
    for (const child of parents.get(id) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** A `Name:   1234 kB` line of a /proc file, in MB; 0 if it has none. */
function megabytesField(text: string, name: string): number {
  return Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? 0) / 1024;
}

/** A process's resident memory, MB, from /proc/<pid>/smaps_rollup: its own pages and those it shares. */
async function residentParts(pid: number): Promise<{ privateMb: number; sharedMb: number }> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  const field = (name: string) => megabytesField(rollup, name);
  return {
    privateMb: field('Private_Clean') + field('Private_Dirty'),
    sharedMb: field('Shared_Clean') + field('Shared_Dirty'),
  };
}

/**
 * The resident memory of a process tree with each page counted once, MB: every process's own
 * pages, and the shared pages of the one that shares the most. The processes of a tree like
 * `npm start` share the node binary and the system's libraries, which summed RSS counts once for
 * each of them; PSS would divide them among every process on the machine that maps them (a test
 * runner's node as well), which a farm's box running the product alone does not have. Linux only.
 */
export async function treeUniqueMegabytes(pid: number): Promise<number> {
  const parts = await Promise.all((await processTree(pid)).map(residentParts));
  const own = parts.reduce((sum, part) => sum + part.privateMb, 0);
  return own + Math.max(0, ...parts.map((part) => part.sharedMb));
}

/** The resident memory of a process and all its descendants (a database server it runs, say), MB. */
export async function treeResidentMegabytes(pid: number): Promise<number> {
  const sizes = await Promise.all((await processTree(pid)).map(residentMegabytes));
  return sizes.reduce((sum, megabytes) => sum + megabytes, 0);
}

/**
 * Resident MB of the process's WebAssembly memories. V8 reserves each one's whole address range
 * (8 GB or more with its guard pages) and makes the part in use readable: a read-write mapping
 * that ends where a huge inaccessible one begins. In the server only PGlite has WebAssembly
 * memory worth counting, and it never gives pages back (memory.grow only grows). Linux only.
 */
export async function webAssemblyResidentMegabytes(pid: number): Promise<number> {
  const smaps = await readFile(`/proc/${pid}/smaps`, 'utf8').catch(() => '');
  const mappings: { start: bigint; end: bigint; access: string; rssKb: number }[] = [];
  for (const line of smaps.split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) (\S+) /.exec(line);
    if (range)
      mappings.push({ start: BigInt(`0x${range[1]}`), end: BigInt(`0x${range[2]}`), access: range[3]!, rssKb: 0 });
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss && mappings.length > 0) mappings.at(-1)!.rssKb = Number(rss[1]);
  }
  const guardBytes = 4n * 1024n ** 3n;
  let kilobytes = 0;
  for (const [index, mapping] of mappings.entries()) {
    const next = mappings[index + 1];
    const isWasmMemory =
      mapping.access === 'rw-p' &&
      next?.access === '---p' &&
      next.start === mapping.end &&
      next.end - next.start >= guardBytes;
    if (isWasmMemory) kilobytes += mapping.rssKb;
  }
  return kilobytes / 1024;
}

/**
 * What the process's resident memory is made of, MB: its own pages (for Node: V8's heap, buffers
 * and native allocations), mapped files (the binary and its libraries), shared memory.
 */
export async function memoryParts(
  pid: number | undefined,
): Promise<{ anonymousMb: number; fileMb: number; sharedMb: number }> {
  const status = pid === undefined ? '' : await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const megabytes = (field: string) => megabytesField(status, field);
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
