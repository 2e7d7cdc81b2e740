/**
 * What an avatar host child does before it plays: the first reads its config at once, the others only when the
 * core first asks something of them (docs/avatar-hosts.md). Shown with a config that will not do: the first host
 * stops before it says it is ready, another says ready and stops only once an avatar is placed on it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HOST_ENTRY } from '../../src/game/hosts/game-processes.ts';
import type { CoreToHost, HostConfig, HostToCore } from '../../src/game/hosts/protocol.ts';

const started: ChildProcess[] = [];

afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** A host child as the core starts it (its stderr kept here), with `env` over this process's environment. */
function startHost(config: HostConfig, env: Record<string, string>): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = fork(HOST_ENTRY, [JSON.stringify(config)], {
    execArgv: HOST_ENTRY.endsWith('.ts') ? ['--import', tsx] : [],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  started.push(child);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stderr: () => err, exited };
}

/** The host's first message, or its exit code when it exits first. */
async function firstWord(child: ChildProcess, exited: Promise<number | null>): Promise<HostToCore | { exited: number | null }> {
  return Promise.race([once(child, 'message').then(([m]) => m as HostToCore), exited.then((code) => ({ exited: code }))]);
}

describe('an avatar host child before it plays', () => {
  it('GIVEN a config that will not do (LOG_LEVEL=loud) THEN the first host stops with code 2 naming it before it says ready', async () => {
    const host = startHost({ index: 0, world: null }, { LOG_LEVEL: 'loud' });
    expect(await firstWord(host.child, host.exited)).toEqual({ exited: 2 });
    expect(host.stderr()).toMatch(/^mindlink avatar host: .*LOG_LEVEL/m);
  }, 60_000);

  it('GIVEN the same config THEN the second host says ready having read none of it, and stops with code 2 naming it once an avatar is placed on it', async () => {
    const host = startHost({ index: 1, world: null }, { LOG_LEVEL: 'loud' });
    expect(await firstWord(host.child, host.exited)).toMatchObject({ type: 'ready', pid: host.child.pid });
    expect(host.stderr()).toBe('');
    const start: CoreToHost = { type: 'start', avatar: 'ann', placement: 1, server: { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' }, hear: false };
    host.child.send(start);
    expect(await host.exited).toBe(2);
    expect(host.stderr()).toMatch(/^mindlink avatar host: .*LOG_LEVEL/m);
  }, 60_000);
});
