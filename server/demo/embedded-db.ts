import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';

/** A process that has files of the database directory open. */
export type Holder = { pid: number; command: string };

/**
 * Processes (other than this one) with a file under `dir` open, read from /proc; null where
 * there is no /proc (macOS, Windows), so the caller cannot tell.
 */
export async function findHolders(dir: string): Promise<Holder[] | null> {
  if (!existsSync('/proc/self/fd')) return null;
  const prefix = `${path.resolve(dir)}${path.sep}`;
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((n) => /^\d+$/.test(n));
  const holders: Holder[] = [];
  for (const name of pids) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target.startsWith(prefix)) {
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        holders.push({ pid, command: cmdline.split('\0').filter(Boolean).join(' ').slice(0, 120) });
        break;
      }
    }
  }
  return holders;
}

/**
 * PGlite takes no lock on its directory, so two processes could open it and corrupt it. It
 * writes postmaster.pid while open and removes it on a clean close: when that file is there,
 * look for the process that has the files open. Returns why the directory is busy, or null.
 */
export async function embeddedDatabaseBusy(pgdata: string): Promise<string | null> {
  if (!existsSync(path.join(pgdata, 'postmaster.pid'))) return null;
  const holders = await findHolders(pgdata);
  if (holders === null) {
    return (
      `The embedded database at ${pgdata} looks open in another process (postmaster.pid is there). ` +
      'Stop the server (npm start or npm run dev) first, then run npm run demo again. If no server ' +
      'is running, the last one was not stopped cleanly: start it once and stop it with Ctrl+C.'
    );
  }
  if (holders.length === 0) return null; // left behind by a crash; PGlite recovers on open
  const who = holders
    .map((h) => `process ${h.pid}${h.command ? ` (${h.command})` : ''}`)
    .join(', ');
  return (
    `The embedded database at ${pgdata} is in use by ${who}. The embedded database can only be ` +
    'opened by one process at a time: stop the server (Ctrl+C in its terminal) and run npm run ' +
    'demo again.'
  );
}
