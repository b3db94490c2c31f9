/**
 * The directions of the house (issue 28), checked on every `npm run lint`: reads every import of
 * server/, web/, contract/ and scripts/ and fails (exit 1, one line per wrong arrow) when
 *
 * - a server capability (`server/modules/<x>/`) reaches into another one other than through its
 *   `index.ts`;
 * - infrastructure (`server/db`, `auth`, `http`, `jobs`, `mail`, `storage`, `notify`, `ops`…)
 *   imports a capability; only the composition roots (`server/app.ts`, `server/main.ts`,
 *   `server/ops/owner-ops.ts`) assemble capabilities, through their `index.ts`;
 * - `server/db/` imports `server/ops/`;
 * - the server imports `scripts/`, or the web imports `server/`;
 * - one admin screen folder (`web/features/admin/<x>/`) imports another (shared pieces live in
 *   `web/components/` or `web/lib/`);
 * - files import each other in a circle.
 *
 * Tests may reach into any capability (they test its insides), but not in circles.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export type Edge = { from: string; to: string };
export type Problem = { rule: string; from: string; to: string };

const COMPOSITION_ROOTS = new Set(['server/app.ts', 'server/main.ts', 'server/ops/owner-ops.ts']);
/** The demo seeder writes a network across every capability (through their index.ts). */
const isCompositionRoot = (f: string) => COMPOSITION_ROOTS.has(f) || f.startsWith('server/demo/');
const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f.startsWith('server/test/');
const capabilityOf = (f: string) => /^server\/modules\/([^/]+)\//.exec(f)?.[1];
const adminFeatureOf = (f: string) => /^web\/features\/admin\/([^/]+)\//.exec(f)?.[1];

/** The wrong arrows among these edges (paths relative to the repository, with extensions). */
export function checkEdges(edges: Edge[]): Problem[] {
  const problems: Problem[] = [];
  const say = (rule: string, e: Edge) => problems.push({ rule, ...e });
  for (const e of edges) {
    const { from, to } = e;
    const fromCap = capabilityOf(from);
    const toCap = capabilityOf(to);
    const viaIndex = to.endsWith('/index.ts');
    if (toCap && fromCap && fromCap !== toCap && !viaIndex && !isTest(from)) {
      say(`the ${fromCap} capability reaches into ${toCap} other than through its index.ts`, e);
    }
    if (toCap && !fromCap && from.startsWith('server/') && !isTest(from)) {
      if (!isCompositionRoot(from)) {
        say(
          'infrastructure imports a capability (only app.ts, main.ts and owner-ops.ts assemble them)',
          e,
        );
      } else if (!viaIndex) {
        say('a composition root imports a capability other than through its index.ts', e);
      }
    }
    if (from.startsWith('server/db/') && to.startsWith('server/ops/')) {
      say('server/db imports server/ops', e);
    }
    if (from.startsWith('server/') && to.startsWith('scripts/') && !isTest(from)) {
      say('the server imports scripts/', e);
    }
    if ((from.startsWith('web/') || from.startsWith('contract/')) && to.startsWith('server/')) {
      say(`${from.split('/')[0]}/ imports the server`, e);
    }
    const a = adminFeatureOf(from);
    const b = adminFeatureOf(to);
    if (a && b && a !== b) say(`the admin ${a} screens import the admin ${b} screens`, e);
  }
  for (const circle of circlesOf(edges)) {
    problems.push({
      rule: 'a circle of imports',
      from: circle[0]!,
      to: circle.slice(1).concat(circle[0]!).join(' → '),
    });
  }
  return problems;
}

/** Every circle of the graph, once each (Tarjan's strongly connected components, size > 1). */
export function circlesOf(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

const IMPORT =
  /(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** Where an import specifier of `file` points, relative to the repository, or null (a package). */
function resolve(file: string, spec: string): string | null {
  if (spec.startsWith('@/')) return path.posix.normalize(`web/${spec.slice(2)}`);
  if (spec.startsWith('@contract/')) return path.posix.normalize(`contract/${spec.slice(10)}`);
  if (spec.startsWith('.'))
    return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  return null;
}

function sourceFiles(root: string, dir: string, out: string[] = []): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return out;
  for (const name of readdirSync(full)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) sourceFiles(root, rel, out);
    else if (/\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

/** The import edges of the repository at `root`. */
export function importEdges(root: string): Edge[] {
  const edges: Edge[] = [];
  for (const dir of ['server', 'web', 'contract', 'scripts']) {
    for (const file of sourceFiles(root, dir)) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const to = resolve(file, m[1] ?? m[2] ?? m[3]!);
        if (to) edges.push({ from: file, to });
      }
    }
  }
  return edges;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const problems = checkEdges(importEdges(root));
  for (const p of problems) console.error(`${p.from} → ${p.to}: ${p.rule}`);
  if (problems.length) {
    console.error(
      `${problems.length} import(s) against the direction of the house (docs/architecture.md).`,
    );
    process.exit(1);
  }
  console.log('imports: every arrow goes the house’s way, no circle.');
}
