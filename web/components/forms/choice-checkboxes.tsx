import { Checkbox, type CheckboxGroupProps, SimpleGrid, Stack } from '@mantine/core';

/**
 * A form field holding several choices: one checkbox per choice, in one column or two from the
 * `sm` breakpoint on. Takes a field's `getInputProps` like any input.
 */
export function ChoiceCheckboxes({
  choices,
  twoColumns = false,
  ...group
}: Omit<CheckboxGroupProps, 'children'> & {
  choices: readonly { value: string; label: string }[];
  twoColumns?: boolean;
}) {
  const boxes = choices.map((c) => <Checkbox key={c.value} value={c.value} label={c.label} />);
  return (
    <Checkbox.Group {...group}>
      {twoColumns ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
          {boxes}
        </SimpleGrid>
      ) : (
        <Stack gap="xs" mt="xs">
          {boxes}
        </Stack>
      )}
    </Checkbox.Group>
  );
}
