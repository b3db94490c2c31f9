import type { LeadImport } from '@contract/lead-actions.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { ErrorTable } from './lead-import-page.tsx';

/** The error table of an import check that kept `errors` and counted `error_rows` rows. */
const renderErrors = (errors: LeadImport['errors'], error_rows: number) =>
  renderWithApp(<ErrorTable job={{ errors, error_rows } as LeadImport} />);

describe("the import check's errors (issue 34: every error of a row, not the first)", () => {
  it('shows one row per line with each of its problems and their columns', () => {
    renderErrors(
      [
        { line: 4, column: 'Date', message: '"later" is not a date and time.' },
        { line: 4, column: 'Duration (s)', message: '"forever" is not a duration.' },
        { line: 7, column: 'Publisher', message: '"Twin" names 2 publishers: A, B.' },
      ],
      2,
    );
    const table = screen.getByRole('table', { name: 'Rows with errors' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toBe(
      '4Date: "later" is not a date and time.Duration (s): "forever" is not a duration.',
    );
    expect(rows[1]!.textContent).toBe('7Publisher: "Twin" names 2 publishers: A, B.');
    expect(screen.getByText('Rows with errors')).toBeTruthy();
  });

  it('says how many rows are shown when the kept errors cover only the first rows', () => {
    renderErrors(
      [
        { line: 2, column: 'Date', message: 'a' },
        { line: 2, column: 'Payout', message: 'b' },
      ],
      5,
    );
    expect(screen.getByText('The first 1 of 5 rows with errors')).toBeTruthy();
  });
});
