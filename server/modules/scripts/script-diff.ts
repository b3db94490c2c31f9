import { diffLines } from 'diff';
import type { ScriptDiffLine } from '../../../contract/scripts.ts';

/** Line endings as one kind, and a last line that ends like the others. */
function lines(s: string): string {
  const t = s.replace(/\r\n?/g, '\n');
  return t === '' || t.endsWith('\n') ? t : `${t}\n`;
}

/** The line diff from `before` to `after` (issue 33): each line kept, added or removed. */
export function lineDiff(before: string, after: string): ScriptDiffLine[] {
  const out: ScriptDiffLine[] = [];
  for (const part of diffLines(lines(before), lines(after))) {
    if (part.value === '') continue;
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ kind, text });
  }
  return out;
}

/** How many lines were added and removed. */
export function diffCounts(diff: ScriptDiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of diff) {
    if (l.kind === 'added') added++;
    else if (l.kind === 'removed') removed++;
  }
  return { added, removed };
}
