import type { ComponentType } from 'react';

/** One entry of an area's sidebar; areas list these in an array, the shell renders them. */
export type NavItem = {
  label: string;
  to: string;
  icon?: ComponentType<{ size?: number | string; stroke?: number }>;
  /** Active only on this exact path (the area's index), not on its sub-paths. */
  end?: boolean;
  /**
   * The sidebar section the entry opens or belongs to (a heading above the first entry of each
   * section): a long menu read in groups, short enough to fit a 1280×800 screen.
   */
  section?: string;
};
