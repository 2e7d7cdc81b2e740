import { describe, expect, it } from 'vitest';
import { PreemptedError, SkillGate } from '../../src/game/skill-gate.ts';

function until(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const fire = (): void => resolve(String((signal.reason as Error).name));
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

describe('SkillGate', () => {
  it('GIVEN a running skill WHEN a reflex pre-empts THEN the skill sees PreemptedError, the reflex runs after it settled, and a nested skill passes through', async () => {
    const gate = new SkillGate();
    const order: string[] = [];
    const skill = gate.run('collect', new AbortController().signal, async (signal) => {
      const why = await until(signal);
      order.push(`collect stopped: ${why}`);
      return signal.reason instanceof PreemptedError ? signal.reason.by : 'other';
    });
    expect(gate.busy).toBe(true);
    const reflex = gate.preempt('defend', async () => {
      order.push('defend');
      return gate.run('fight', new AbortController().signal, async () => {
        order.push('fight');
        return 'fought';
      });
    });
    expect(await skill).toBe('defend');
    expect(await reflex).toBe('fought');
    expect(order).toEqual(['collect stopped: PreemptedError', 'defend', 'fight']);
    expect(gate.current).toBeUndefined();
  });

  it('GIVEN a reflex holding the gate WHEN a skill starts THEN it waits for the reflex to finish', async () => {
    const gate = new SkillGate();
    const order: string[] = [];
    let release!: () => void;
    const reflex = gate.preempt('eat', () => new Promise<void>((r) => (release = r)).then(() => void order.push('eat done')));
    const skill = gate.run('go_to', new AbortController().signal, async () => void order.push('go_to'));
    await Promise.resolve();
    expect(order).toEqual([]);
    release();
    await Promise.all([reflex, skill]);
    expect(order).toEqual(['eat done', 'go_to']);
  });

  it('GIVEN a waiting skill WHEN its caller aborts THEN it rejects without running', async () => {
    const gate = new SkillGate();
    let release!: () => void;
    const first = gate.run('a', new AbortController().signal, () => new Promise<void>((r) => (release = r)));
    const ac = new AbortController();
    let ran = false;
    const second = gate.run('b', ac.signal, async () => void (ran = true));
    ac.abort(new Error('stop'));
    await expect(second).rejects.toThrow('stop');
    release();
    await first;
    expect(ran).toBe(false);
  });
});
