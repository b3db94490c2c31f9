import { NumberInput, type NumberInputProps } from '@mantine/core';

/**
 * A whole number of days from 0 to a year: a buyer's return window, the days publishers have to
 * acknowledge a new script.
 */
export function DaysInput(props: NumberInputProps) {
  return <NumberInput min={0} max={365} allowDecimal={false} {...props} />;
}
