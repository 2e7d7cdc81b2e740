/**
 * The words a command's reply is made of, from the parts that own them: how a run time, a usage
 * line, a direction line, a server address or a place's dimension reads; the message limit; a name slip; a goal no
 * avatar can reach. Every one is a pure function or a constant: nothing here holds state or
 * checks a right (that is {@link CommandHost}'s job), so a command that words its reply with
 * them still works only through the host. The rule `commands-through-host`
 * (`.dependency-cruiser.cjs`) lets `commands/` import from `src/` only this file, the host and the
 * shared contracts.
 */
export { statusActions } from './cards.ts';
export { closestName, isTooLong, MAX_MESSAGE_LENGTH } from './classify.ts';
export { cleanText } from './sanitize.ts';
export { ENGINE_KINDS, modelShown } from './engines/kinds.ts';
export { formatTurns, formatUsage } from './engines/llm/usage.ts';
export { impossibleGoal } from './goals/goal-language.ts';
export { dimensionWords, MAX_PLACES } from './goals/places.ts';
export { formatRun } from './schedule/runs.ts';
export { formatAddress } from './servers/address.ts';
export type { ServerFound } from './servers/registry.ts';
export { TypedIdentitySchema } from './store/schema.ts';
export { DIRECTION_CUT, formatDirectionLine, isoDay } from './task/directions.ts';
export { LINK_TTL_MS } from './web-access.ts';
