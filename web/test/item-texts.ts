import { within } from '@testing-library/react';

/** The text of each item of a list (or any element holding `listitem`s), in order. */
export const itemTexts = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
