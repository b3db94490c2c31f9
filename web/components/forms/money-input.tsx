import { NumberInput, type NumberInputProps } from '@mantine/core';

/**
 * An amount of money: never negative, cents at most, thousands separated, the currency's symbol
 * in front ("$" unless told).
 */
export function MoneyInput({ prefix = '$', ...props }: NumberInputProps) {
  return (
    <NumberInput
      prefix={prefix}
      min={0}
      step={0.01}
      decimalScale={2}
      thousandSeparator=","
      {...props}
    />
  );
}
