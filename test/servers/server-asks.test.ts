/**
 * What a server asks of a joining player, answered: a login plugin's
 * `/register` and `/login` (AuthMe's prompts) with the avatar's own password
 * for that server, generated once and kept in a file only its owner may read;
 * a resource pack, accepted. A server that kicks "Wrong password!" stops the
 * avatar with a line about its login plugin. The server is minecraft-protocol's
 * own, started and closed here.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProtocolServer, type ProtocolServer } from '../fakes/protocol-server.ts';
import { ask, lineAfter, startCore, type Running } from './helpers.ts';

describe('GIVEN a server with a login plugin that also sends a resource pack', () => {
  let dir = '';
  let run: Running;
  let server: ProtocolServer;
  const commands: string[] = [];
  const packAnswers: number[] = [];
  let joins = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mindlink-asks-'));
    server = await startProtocolServer({
      onJoin(client) {
        joins += 1;
        const first = joins === 1;
        client.on('chat_command', (p: { command: string }) => {
          commands.push(p.command);
          // Registered: the plugin lets the player in again (a restart); logged in: a pack, then a refusal.
          if (first) client.end('Server is restarting');
          else {
            client.write('add_resource_pack', { uuid: randomUUID(), url: 'http://127.0.0.1:1/pack.zip', hash: '', forced: true });
          }
        });
        client.on('resource_pack_receive', (p: { result: number }) => {
          packAnswers.push(p.result);
          if (packAnswers.length === 2) client.end('Wrong password!');
        });
        server.say(client, first ? 'Please, register to the server with the command: /register <password> <ConfirmPassword>' : 'Please, login with the command: /login <password>');
      },
    });
    run = await startCore(dir);
    await ask(run.io, `/server add auth 127.0.0.1:${server.port}`, /^\[mindlink\] Added auth /);
    await ask(run.io, '/avatar create dee server:auth', /^\[dee\] Created/);
  }, 60_000);

  afterAll(async () => {
    await run?.core.stop();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN /play dee THEN it registers, logs in again with the same stored password, accepts the pack, and stops on the plugin\'s refusal in words', async () => {
    const from = run.io.lines.length;
    run.io.send('/play dee');
    const stopped = await lineAfter(run.io, from, /^\[dee\] Stopped: /, 90_000);
    expect(stopped).toBe(
      '[dee] Stopped: auth\'s login plugin refused dee (the server says: "Wrong password!"). If dee registered there before with a password mindlink does not know, ask the server\'s admin to unregister it (AuthMe: /authme unregister dee), then /play dee.',
    );
    const file = path.join(dir, 'accounts', 'dee.passwords.json');
    const { auth: password } = JSON.parse(await readFile(file, 'utf8')) as { auth: string };
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(commands).toEqual([`register ${password} ${password}`, `login ${password}`]);
    expect(packAnswers).toEqual([3, 0]); // accepted, then loaded
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(run.io.lines.join('\n')).not.toContain(password);
    expect(await ask(run.io, '/status dee', /^\[dee\] stopped/)).toBe("[dee] stopped (auth's login plugin refused dee) · no goal");
  }, 120_000);
});
