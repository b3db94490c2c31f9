// How the command-line tools read their options (`npm run demo`, `npm run bench`): node:util
// parseArgs, its complaints shown beside the usage, and --help.
import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * The options `npm run demo` sizes its data with; `npm run bench -- --pglite` takes the same and
 * passes them on to it.
 */
export const demoSizeOptions = {
  leads: { type: 'string' },
  publishers: { type: 'string' },
  buyers: { type: 'string' },
} as const;

/**
 * The options of a command (`config` as node:util `parseArgs` takes it, with a `help` option).
 * parseArgs's complaint (an unknown option, a missing value) goes to `fail` with the usage under
 * it; --help prints the usage and answers null: there is nothing to run.
 */
export function argsOrHelp<T extends ParseArgsConfig>(
  config: T,
  usage: string,
  fail: (message: string) => never,
): ReturnType<typeof parseArgs<T>> | null {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    fail(`${(err as Error).message}\n\n${usage}`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return null;
  }
  return parsed;
}
