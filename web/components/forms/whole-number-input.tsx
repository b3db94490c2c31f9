import { NumberInput, type NumberInputProps } from '@mantine/core';

/** A count in whole units from 0 up (a call's minutes, a part's index): no decimals, no sign. */
export function WholeNumberInput(props: NumberInputProps) {
  return <NumberInput min={0} allowDecimal={false} allowNegative={false} {...props} />;
}
