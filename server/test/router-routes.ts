import type { FastifyInstance } from 'fastify';

/** A method and path as the router serves them. */
export type ServedRoute = { method: string; url: string };

/**
 * Every method and path the app's router answers, read from its radix tree
 * (`app.printRoutes()`), not from an onRoute hook: a route registered where no hook sees it
 * (before the hook was added, or in a context that does not inherit it) is still listed. Each
 * line of the tree is one node, indented four columns a level, holding the part of the path
 * after its parent's, and the methods served there in parentheses.
 */
export function routesInRouter(app: FastifyInstance): ServedRoute[] {
  const served: ServedRoute[] = [];
  const pathAt: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    if (at % 4 !== 0) throw new Error(`Unexpected router tree line: ${JSON.stringify(line)}`);
    const depth = at / 4;
    const node = /^(.*?)(?: \(([A-Z]+(?:, [A-Z]+)*)\))?$/.exec(line.slice(at + 4));
    if (!node) throw new Error(`Unexpected router tree line: ${JSON.stringify(line)}`);
    const part = node[1] === '(empty root node)' ? '' : (node[1] ?? '');
    const path = (depth > 0 ? (pathAt[depth - 1] ?? '') : '') + part;
    pathAt.length = depth;
    pathAt.push(path);
    for (const method of node[2]?.split(', ') ?? []) served.push({ method, url: path });
  }
  return served;
}
