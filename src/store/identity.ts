/**
 * Identities a person types (in `/owner`, in `ADMINS`): what is wrong with
 * one, per platform, and the schema that refuses it.
 */
import { z } from 'zod';

/**
 * What is wrong with an identity someone typed (in `/owner`, in `ADMINS`), or null when it is a real
 * one: `telegram:` and a user's numeric id, `discord:` and a user's snowflake (17–20 digits), or
 * `console:local`. Stored identities come from the platforms themselves and are read with the looser
 * `IdentitySchema` of `schema.ts`.
 *
 * @example
 * identityProblem('telegram:123456789'); // null
 * identityProblem('telegram:abc');       // 'a Telegram identity is telegram: and the user's numeric id, e.g. telegram:123456789'
 */
export function identityProblem(value: string): string | null {
  const m = /^([a-z]+):(.*)$/.exec(value);
  const platform = m?.[1];
  const id = m?.[2] ?? '';
  if (platform === 'telegram') {
    return /^[1-9]\d{0,15}$/.test(id) ? null : "a Telegram identity is telegram: and the user's numeric id, e.g. telegram:123456789";
  }
  if (platform === 'discord') {
    return /^[1-9]\d{16,19}$/.test(id)
      ? null
      : "a Discord identity is discord: and the user's 17–20 digit id (Developer Mode → Copy User ID), e.g. discord:80351110224678912";
  }
  if (platform === 'console') return id === 'local' ? null : 'the console identity is console:local';
  return 'an identity is telegram:<user id>, discord:<user id> or console:local';
}

/** An identity typed by a person, checked per platform (see {@link identityProblem}). */
export const TypedIdentitySchema = z.string().superRefine((value, ctx) => {
  const problem = identityProblem(value.trim());
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
