import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Waits until no other process builds into `outDir`, then holds `<outDir>.lock` (holding this
 * process's id) until the returned release is called: two builds of one checkout at once (two
 * `npm start`s, a start and an `npm run build`) take turns instead of emptying and writing
 * dist/ over each other. A lock left by a process that died is taken over.
 */
export async function acquireBuildLock(outDir: string): Promise<() => void> {
  const lock = `${outDir}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(lock, 'utf8').trim());
    } catch {
      continue; // released meanwhile
    }
    if (!holder || !alive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (!announced) {
      console.log(`Waiting for the web build of process ${holder} (${outDir})…`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}
