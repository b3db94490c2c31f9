// `npm start`: builds the web app when it is missing or older than its sources, then serves.
import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
import { exitIfDataDirHeld } from '../server/db/data-dir-owner.ts';
import { buildWebIfStale } from './build-web.ts';

// A second portal on the same data folder is refused before the (slow) build.
if (existsSync('.env')) loadEnvFile('.env');
await exitIfDataDirHeld();
const status = await buildWebIfStale();
if (status !== 0) process.exit(status);
await import('../server/main.ts');
