// The server's processes (with node:cluster, a primary and its workers) and their resident memory,
// read from /proc (Linux).
import fs from 'node:fs';

/** Parent of every process now running. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) is in parentheses and may hold spaces: read after its end.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

/** `pid` and all its descendants. */
export function processTree(pid: number): number[] {
  const byParent = parents();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of byParent) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** Resident memory of a process in MB (0 when it is gone). */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export interface Memory {
  totalMb: number;
  /** Each process of the tree, the started one first. */
  processes: { pid: number; mb: number }[];
  /** The largest process: with workers, one instance of the server. */
  largestMb: number;
}

export function memoryOf(pid: number): Memory {
  const processes = processTree(pid).map((p) => ({ pid: p, mb: rssMb(p) }));
  return {
    totalMb: processes.reduce((n, p) => n + p.mb, 0),
    processes,
    largestMb: Math.max(...processes.map((p) => p.mb)),
  };
}

/** How many processes answer requests: the workers under a primary, else the one process. */
export const servingProcesses = (pid: number) => Math.max(1, processTree(pid).length - 1);
