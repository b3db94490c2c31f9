import type { ComponentType } from 'react';

/** One entry of an area's sidebar; areas list these in an array, the shell renders them. */
export type NavItem = {
  label: string;
  to: string;
  icon?: ComponentType<{ size?: number | string; stroke?: number }>;
  /** Active only on this exact path (the area's index), not on its sub-paths. */
  end?: boolean;
};
