import { z } from 'zod';

type Issue = Parameters<NonNullable<Parameters<typeof z.config>[0]>['customError'] & {}>[0];

const typeNames: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a list',
  date: 'a date',
  null: 'empty (null)',
};

const formatNames: Record<string, string> = {
  uuid: 'a valid id',
  guid: 'a valid id',
  email: 'a valid e-mail address',
  url: 'a valid URL',
  date: 'a date like 2024-05-31',
  datetime: 'an ISO date-time like 2024-05-31T12:00:00Z',
  time: 'a time like 12:30',
};

const plural = (n: number | bigint, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;

/**
 * Plain-sentence messages for zod's built-in checks, used wherever a schema gives no message of
 * its own ("page: Must be a number." instead of "Invalid input: expected number, received NaN").
 */
export function humanZodMessage(iss: Issue): string | undefined {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'Required.';
      return `Must be ${typeNames[iss.expected] ?? iss.expected}.`;
    case 'too_small': {
      const min = iss.minimum;
      if (iss.origin === 'string') {
        return Number(min) <= 1
          ? 'Cannot be empty.'
          : `Must be at least ${plural(min, 'character')}.`;
      }
      if (iss.origin === 'array' || iss.origin === 'set') {
        return `Must have at least ${plural(min, 'item')}.`;
      }
      return iss.inclusive === false ? `Must be greater than ${min}.` : `Must be at least ${min}.`;
    }
    case 'too_big': {
      const max = iss.maximum;
      if (iss.origin === 'string') return `Can be at most ${plural(max, 'character')}.`;
      if (iss.origin === 'array' || iss.origin === 'set') {
        return `Can have at most ${plural(max, 'item')}.`;
      }
      return iss.inclusive === false ? `Must be less than ${max}.` : `Must be at most ${max}.`;
    }
    case 'invalid_value':
      return iss.values.length === 1
        ? `Must be ${String(iss.values[0])}.`
        : `Must be one of: ${iss.values.map(String).join(', ')}.`;
    case 'invalid_format':
      return `Must be ${formatNames[iss.format] ?? `in the ${iss.format} format`}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${iss.divisor}.`;
    case 'unrecognized_keys':
      return `Unknown ${iss.keys.length === 1 ? 'field' : 'fields'}: ${iss.keys.join(', ')}.`;
    case 'invalid_union':
      return 'Has the wrong type or format.';
    default:
      return undefined;
  }
}

z.config({ customError: humanZodMessage });
