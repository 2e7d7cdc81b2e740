/**
 * A button press through the router (`src/press.ts`), the same on every platform: the command it stands
 * for with the presser's rights, a card shown again as the avatar is now, and the odd presses — an id
 * mindlink never made, an avatar that is gone, a goal left empty. The console keeps plain text.
 */
import { describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat.ts';
import { coresPerTest } from './console-harness.ts';

const start = coresPerTest('press');
const CONSOLE: ChatContext = { platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null };
const STRANGER: ChatContext = { platform: 'telegram', from: 'telegram:99', fromName: 'Eve', dest: 'telegram:99', chatKind: 'private', messageId: null };

describe('a press through the router', () => {
  it('GIVEN the console THEN /status is still plain text; its card, for the platforms that show one, has the same facts', async () => {
    const { core, send, line } = await start();
    send('/status');
    expect(await line(/^\[demo\] (working|choosing) · /)).toBe('[demo] working · goal: explore (chosen by me)');
    const answer = await core.router.answerCommand({ ...CONSOLE, name: 'status' });
    expect(answer.card).toMatchObject({ title: 'demo', fields: expect.arrayContaining([{ name: 'Goal', value: 'explore (chosen by me)' }]) });
    expect(answer.card?.actions.map((a) => a.id)).toEqual(['stop:demo', 'refresh:demo', 'goal:demo']);
  });

  it('GIVEN presses THEN each is its command: Stop stops and shows the card again, Goal… asks first and then sets the goal', async () => {
    const { core } = await start();
    const stopped = await core.router.press({ ...CONSOLE, action: 'stop:demo' });
    expect(stopped).toMatchObject({ kind: 'update', avatar: 'demo', note: 'console pressed Stop: Stopped. My goal is kept: /play resumes it.' });
    expect(stopped.kind === 'update' && stopped.card.actions.map((a) => a.id)).toEqual(['play:demo', 'refresh:demo', 'goal:demo']);
    expect(core.avatars.isPlaying('demo')).toBe(false);
    expect(await core.router.press({ ...CONSOLE, action: 'goal:demo' })).toEqual({ kind: 'ask', avatar: 'demo', prompt: 'New goal for demo', placeholder: 'collect 10 oak logs' });
    const set = await core.router.press({ ...CONSOLE, action: 'goal:demo', text: 'collect 5 dirt' });
    expect(set).toMatchObject({ kind: 'update', note: "New goal from console: collect 5 dirt. I'm stopped: /play demo starts me." });
    expect(core.avatars.get('demo')?.goal?.text).toBe('collect 5 dirt');
  });

  it('GIVEN odd presses THEN each is refused with a line that says why, and nothing changes', async () => {
    const { core } = await start();
    expect(await core.router.press({ ...CONSOLE, action: 'drop:demo' })).toEqual({ kind: 'refused', avatar: null, text: 'That button is not one of mine. /help lists what I do.' });
    expect(await core.router.press({ ...CONSOLE, action: 'stop:nobody' })).toMatchObject({ kind: 'refused', text: expect.stringMatching(/no avatar called "nobody"/) });
    expect(await core.router.press({ ...CONSOLE, action: 'goal:demo', text: '   ' })).toMatchObject({ kind: 'refused', avatar: 'demo', text: expect.stringMatching(/Say what the goal is/) });
    expect(await core.router.press({ ...CONSOLE, action: 'goal:demo', text: 'collect -5 dirt' })).toMatchObject({ kind: 'refused', text: expect.stringMatching(/^I can't take that goal/) });
    // Someone mindlink does not know learns nothing, not even by a button id they made up.
    const stranger = await core.router.press({ ...STRANGER, action: 'stop:demo' });
    expect(stranger).toMatchObject({ kind: 'refused' });
    expect(stranger.kind === 'refused' && stranger.text).not.toMatch(/demo/);
    expect(await core.router.press({ ...STRANGER, action: 'goal:demo' })).toMatchObject({ kind: 'refused' });
    expect(core.avatars.isPlaying('demo')).toBe(true);
    expect(core.avatars.get('demo')?.goal?.text).toBe('explore');
  });
});
