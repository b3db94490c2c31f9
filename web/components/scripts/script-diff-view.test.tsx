import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { ScriptDiffView } from './script-diff-view.tsx';

describe('the script diff (issue 33)', () => {
  it('shows each line with its sign and says what it is', () => {
    renderWithApp(
      <ScriptDiffView
        label="Script changes"
        diff={[
          { kind: 'same', text: 'Greet' },
          { kind: 'removed', text: 'Ask ZIP' },
          { kind: 'added', text: 'Ask state' },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Script changes' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('data-kind'))).toEqual(['same', 'removed', 'added']);
    expect(items.map((i) => i.textContent)).toEqual(['  Greet', '− Ask ZIP', '+ Ask state']);
    expect(screen.getByLabelText('removed: Ask ZIP')).toBeTruthy();
  });

  it('says when the script is empty', () => {
    renderWithApp(<ScriptDiffView label="Script changes" diff={[]} />);
    expect(screen.getByText('The script is empty.')).toBeTruthy();
  });
});
