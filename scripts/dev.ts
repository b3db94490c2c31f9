// `npm run dev`: the API server with reload on change, and Vite's dev server with hot reload.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadEnvFile } from 'node:process';
import { exitIfDataDirHeld } from '../server/db/data-dir-owner.ts';

const root = path.resolve(import.meta.dirname, '..');
// Refused at once when a portal already runs on the embedded data folder.
if (existsSync('.env')) loadEnvFile('.env');
await exitIfDataDirHeld();
const bin = (p: string) => path.join(root, 'node_modules', p);

const children: ChildProcess[] = [
  spawn(process.execPath, [bin('tsx/dist/cli.mjs'), 'watch', 'server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(process.execPath, [bin('vite/bin/vite.js')], { cwd: root, stdio: 'inherit' }),
];
console.log('API on http://localhost:3000, web app with hot reload on http://localhost:5173');

const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) {
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
