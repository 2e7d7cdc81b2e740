/**
 * Validation failures in mindlink's own words.
 *
 * zod's default messages ("Invalid input: expected string, received
 * undefined") are for programmers. Where a parse result can reach a chat or an
 * engine (command options, skill params), parse with {@link plainIssues}: a
 * schema's own message (`{ error: 'give the new avatar a name' }`) still wins;
 * every other issue gets a short plain sentence.
 */
import type { z } from 'zod';

type RawIssue = Parameters<z.core.$ZodErrorMap>[0];

function describe(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/**
 * A zod error map that words each issue plainly: `missing`, `must be a number`, `must be one of "on", "off"`,
 * `at most 2000 characters`…
 *
 * @example
 * schema.safeParse(values, { error: plainIssues });
 */
export const plainIssues = (issue: RawIssue): string => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'missing' : `must be ${issue.expected === 'number' || issue.expected === 'int' ? 'a number' : `a ${issue.expected}`}`;
    case 'invalid_value':
      return `must be one of ${describe(issue.values)}`;
    case 'too_small':
      return issue.origin === 'string' ? `at least ${issue.minimum} characters` : issue.origin === 'array' ? `at least ${issue.minimum} items` : `at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `at most ${issue.maximum} characters` : issue.origin === 'array' ? `at most ${issue.maximum} items` : `at most ${issue.maximum}`;
    case 'invalid_format':
      return 'is not in the right form';
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'option' : 'options'} ${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return 'is not valid';
  }
};
