/**
 * The one rule for text that enters mindlink: control characters never enter raw.
 *
 * Text comes in from chats (messages, display names, command arguments), from
 * the game (whispers) and from engines (their replies). Each of those
 * boundaries passes it through here before anything stores, prints or
 * prompts with it, so no chat line, TASK.md, lab log or prompt ever carries a
 * raw terminal escape (an OSC that retitles the terminal, a CSI that erases
 * or redraws lines and spoofs output), a NUL or a DEL.
 *
 * - Line breaks are kept as `\n` (`\r\n` and a lone `\r`, which would
 *   overwrite the line on a terminal, become `\n`; U+2028/U+2029 too); a tab
 *   becomes a space.
 * - Every other C0 control and DEL is made visible as its Unicode control
 *   picture (ESC → `␛`, BEL → `␇`, NUL → `␀`, DEL → `␡`), so what was sent can
 *   still be read; C1 controls (U+0080–U+009F) become `�`.
 * - Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069),
 *   which can make a line display in another order than it reads, are removed.
 */

// C0 without tab, line feed and carriage return (those are handled first), DEL, C1.
const C0 = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
const DEL = /\u007f/g;
const C1 = /[\u0080-\u009f]/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Make text safe to keep, print and prompt with; line breaks stay.
 *
 * @example
 * cleanText('say \u001b]0;pwned\u0007\u001b[31mhi'); // 'say ␛]0;pwned␇␛[31mhi'
 * cleanText('a\r\nb\rc');                             // 'a\nb\nc'
 */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    .replace(C0, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0)))
    .replace(DEL, '\u2421')
    .replace(C1, '\ufffd')
    .replace(BIDI, '');
}

/**
 * {@link cleanText} for a one-line field (a display name, a player name): line breaks become spaces.
 *
 * @example
 * cleanLine('Mallory\n[demo] Done: fake'); // 'Mallory [demo] Done: fake'
 */
export function cleanLine(text: string): string {
  return cleanText(text).replace(/\n+/g, ' ');
}

/** A value's strings, however deep, through {@link cleanText} (command options from a platform). */
function cleanValue(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanValue(v)]));
  }
  return value;
}

/** The text fields of something a chat sent in: a message or a command invocation. */
interface ChatInput {
  fromName: string;
  text?: string;
  argsText?: string;
  options?: Record<string, unknown>;
}

/**
 * A message or command from a chat with every text field cleaned: the message text, the sender's display
 * name, the command's arguments and option values. Identities and ids are left as the platform gave them.
 *
 * @example
 * core.handleMessage(cleanChatInput(msg));
 */
export function cleanChatInput<T extends ChatInput>(input: T): T {
  const out: T = { ...input, fromName: cleanLine(input.fromName) };
  if (input.text !== undefined) out.text = cleanText(input.text);
  if (input.argsText !== undefined) out.argsText = cleanText(input.argsText);
  if (input.options !== undefined) out.options = cleanValue(input.options) as Record<string, unknown>;
  return out;
}
