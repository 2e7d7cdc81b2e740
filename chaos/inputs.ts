/**
 * Generated hostile and careless input: the messages and commands people (and
 * attackers) actually send. Seeded, so a failing input can be found again.
 */

/** Characters and fragments that break naive text handling. */
const FRAGMENTS = [
  'héllo wörld',
  '日本語のテキスト',
  '🙂🧱⛏️👨‍👩‍👧',
  'e\u0301\u0301\u0301 combining',
  'zero\u200bwidth\u200c\u200djoin\ufeff',
  '\u202eRTL override\u202c',
  '\u200fright-to-left mark',
  'bell\u0007 and null\u0000 and esc\u001b[31mred\u001b[0m',
  '\u001b]0;pwned\u0007title',
  'del\u007f and c1\u0085\u009b2J',
  'tab\tand\rreturn',
  '<b>bold</b> <i>x</i> <a href="tg://user?id=1">link</a> &amp; &lt; & <',
  '*bold* _it_ `code` ```block``` [link](http://example.com) ~~s~~ ||spoiler||',
  '@everyone',
  '@here',
  '<@123456789012345678>',
  '<@!123456789012345678>',
  '<@&987654321098765432>',
  '<#111111111111111111>',
  '@mindlink_test_bot',
  'tg://user?id=1001',
  '../../etc/passwd',
  'con',
  'NUL',
  '${process.env.TELEGRAM_TOKEN}',
  '{{7*7}}',
  "'; DROP TABLE avatars; --",
  'x'.repeat(100),
];

const NAMES = ['demo', 'DEMO', 'nobody', '../x', 'con', 'a', 'x'.repeat(100), 'de mo', 'demo\u200b', '', 'zz_bot'];

const COMMANDS = [
  '/status',
  '/status {name}',
  '/status {name} extra words here',
  '/play {name}',
  '/stop {name}',
  '/goal',
  '/goal {text}',
  '/goal {text} {name}',
  '/direction {name}',
  '/avatars',
  '/avatars please',
  '/avatar',
  '/avatar create',
  '/avatar create {name}',
  '/avatar create {name} embedded bogus',
  '/avatar create {name} engine:',
  '/avatar create {name} engine:bogus',
  '/avatar create {name} :value',
  '/avatar create {name} ::',
  '/link',
  '/link {name} sideways',
  '/link {name} watch extra',
  '/unlink {name}',
  '/owner {name} telegram:abc',
  '/owner {name} discord:123',
  '/owner {name}',
  '/pair',
  '/pair 0000000000',
  '/help',
  '/help extra',
  '/',
  '//',
  '/nosuchcommand',
  '/status@mindlink_test_bot',
  '/STATUS',
  '/goal name:{name} text:{text}',
  '/goal text:',
];

const MESSAGES = [
  '{text}',
  'Goal: {text}',
  'goal:{text}',
  'new goal: say {text}',
  'your goal is {text}',
  'Goal:',
  '{name}: {text}',
  '{name}:',
  '{name}: Goal: say {text}',
  'what is {text}?',
  'where are you?',
  '?',
  '{text}?',
  'stop',
  'STOP',
  'stop please',
  '\u200b',
  ' ',
  '.',
  'Goal: collect 1,000 oak logs',
  'Goal: get 1 air',
  'Goal: follow demo',
];

/** One generated input. */
export interface Input {
  text: string;
  /** Why it was generated (the template), for the report of a failure. */
  template: string;
}

/** `count` inputs from the templates above, filled with seeded picks. */
export function generateInputs(count: number, random: () => number): Input[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const out: Input[] = [];
  for (let i = 0; i < count; i += 1) {
    const roll = random();
    let template: string;
    if (roll < 0.05) template = `{len:${pick([1999, 2000, 2001, 2500])}}`;
    else if (roll < 0.45) template = pick(COMMANDS);
    else template = pick(MESSAGES);
    const text = template.startsWith('{len:')
      ? lengthText(Number(template.slice(5, -1)), random)
      : template
          .replaceAll('{name}', pick(NAMES))
          .replaceAll('{text}', `${pick(FRAGMENTS)}${random() < 0.3 ? ` ${pick(FRAGMENTS)}` : ''}`);
    out.push({ text, template });
  }
  return out;
}

/** A message of exactly `n` characters (code points), with an emoji or two so UTF-16 counting shows. */
function lengthText(n: number, random: () => number): string {
  const chars: string[] = [];
  for (let i = 0; i < n; i += 1) chars.push(random() < 0.01 ? '🙂' : 'abcdefghij '[i % 11] ?? 'a');
  return chars.join('');
}

/** Raw control characters a terminal or a chat must never receive (C0 but newline, DEL, C1). */
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A coordinate triple as mindlink prints positions ("at 3 64 -2"). */
export const COORDINATES = /-?\d+ -?\d+ -?\d+/;
