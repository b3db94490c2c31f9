import type { Ref } from 'react';

/** The bell button's props: the popover draws it too (kept apart so neither imports the other). */
export type BellButtonProps = {
  opened: boolean;
  onClick: () => void;
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
};
