import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEdges, circlesOf, importEdges } from './check-imports.ts';

// Issue 28 item 6: each rule of the house's directions, shown failing on a wrong-way import.
const rulesOf = (from: string, to: string) => checkEdges([{ from, to }]).map((p) => p.rule);

describe('the directions of the house', () => {
  it('a capability reaches another only through its index.ts', () => {
    expect(
      rulesOf('server/modules/leads/leads.service.ts', 'server/modules/money/figures.ts'),
    ).toEqual(['the leads capability reaches into money other than through its index.ts']);
    expect(
      rulesOf('server/modules/leads/leads.service.ts', 'server/modules/money/index.ts'),
    ).toEqual([]);
    // Tests may look inside.
    expect(
      rulesOf('server/modules/leads/leads.test.ts', 'server/modules/money/figures.ts'),
    ).toEqual([]);
  });

  it('infrastructure never imports a capability; composition roots go through index.ts', () => {
    expect(rulesOf('server/db/reports.ts', 'server/modules/money/index.ts')).toEqual([
      'infrastructure imports a capability (only app.ts, main.ts and owner-ops.ts assemble them)',
    ]);
    expect(rulesOf('server/app.ts', 'server/modules/money/money.routes.ts')).toEqual([
      'a composition root imports a capability other than through its index.ts',
    ]);
    expect(rulesOf('server/app.ts', 'server/modules/money/index.ts')).toEqual([]);
  });

  it('db does not import ops, the server not scripts, the web not the server', () => {
    expect(rulesOf('server/db/client.ts', 'server/ops/data-dir-owner.ts')).toEqual([
      'server/db imports server/ops',
    ]);
    expect(rulesOf('server/ops/owner-ops.ts', 'scripts/demo/demo-seed.service.ts')).toEqual([
      'the server imports scripts/',
    ]);
    expect(rulesOf('web/lib/format.ts', 'server/db/money.ts')).toEqual(['web/ imports the server']);
  });

  it('one admin screen folder does not import another', () => {
    expect(
      rulesOf(
        'web/features/admin/payouts/components/payouts-page.tsx',
        'web/features/admin/leads/components/search-select.tsx',
      ),
    ).toEqual(['the admin payouts screens import the admin leads screens']);
    expect(
      rulesOf(
        'web/features/admin/payouts/components/payouts-page.tsx',
        'web/components/search-select.tsx',
      ),
    ).toEqual([]);
  });

  it('finds circles, however long', () => {
    expect(
      circlesOf([
        { from: 'a.ts', to: 'b.ts' },
        { from: 'b.ts', to: 'a.ts' },
      ]),
    ).toEqual([['a.ts', 'b.ts']]);
    const chain = ['a', 'b', 'c', 'd'].map((x, i, all) => ({
      from: `${x}.ts`,
      to: `${all[(i + 1) % all.length]}.ts`,
    }));
    expect(circlesOf(chain)).toHaveLength(1);
    expect(circlesOf(chain.slice(0, 3))).toEqual([]);
    expect(checkEdges(chain).map((p) => p.rule)).toEqual(['a circle of imports']);
  });

  it('the repository itself has no wrong-way import and no circle', () => {
    const edges = importEdges(path.resolve(import.meta.dirname, '..'));
    expect(edges.length).toBeGreaterThan(1000);
    expect(checkEdges(edges)).toEqual([]);
  });
});
