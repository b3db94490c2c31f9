import type { z } from 'zod';

/**
 * Shared: runs a contract schema over a form's values (after `toInput` maps them to the request
 * body) and returns Mantine form errors keyed by the first path segment, first message wins.
 */
export function validateWithSchema<V, S extends z.ZodType>(
  schema: S,
  toInput: (values: V) => unknown,
): (values: V) => Record<string, string> {
  return (values) => {
    const result = schema.safeParse(toInput(values));
    const errors: Record<string, string> = {};
    if (result.success) return errors;
    for (const issue of result.error.issues) {
      const key = issue.path.length ? String(issue.path[0]) : 'form';
      if (!errors[key]) errors[key] = issue.message;
    }
    return errors;
  };
}

/** Server `details` (field → messages) as Mantine form errors, only for the form's own fields. */
export function serverFieldErrors(
  details: Record<string, string[]> | undefined,
  fields: readonly string[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, messages] of Object.entries(details ?? {})) {
    if (fields.includes(field) && messages[0]) errors[field] = messages[0];
  }
  return errors;
}
