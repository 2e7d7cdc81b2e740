/**
 * The reporting protocol's reminder, as a text-speaking engine is prompted with it. The goal loop
 * ends its automatic prompts with it; an engine may swap it for its own wording (the llm engine's
 * short form). It lives with the engines because the engines are who answer it.
 */

/**
 * The short reminder of the reporting protocol that ends automatic prompts.
 *
 * @example
 * const prompt = `${body}\n\n${PROTOCOL_HELP}`;
 */
export const PROTOCOL_HELP = [
  'End your reply with:',
  'STATUS: working | done | blocked',
  'GOAL: <one line>   (only when your goal changes)',
  'SUBTASK: done|blocked <step>   (optional, a finished step)',
  'DIRECTION: done <n>   (optional, owner direction #n is done or no longer applies)',
].join('\n');
