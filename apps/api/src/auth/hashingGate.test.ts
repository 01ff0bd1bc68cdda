import { describe, expect, it } from 'vitest';
import { HashingBusy, HashingGate } from './hashingGate.ts';

describe('HashingGate', () => {
  it('starts at most perSecond hashes a second and refills as time passes', async () => {
    let now = 0;
    const gate = new HashingGate(8, 8, 3, () => now);
    const started: number[] = [];
    const hash = (n: number) => gate.run(() => Promise.resolve(started.push(n)));
    const first = await Promise.allSettled([1, 2, 3, 4, 5].map(hash));
    expect(started).toEqual([1, 2, 3]);
    expect(
      first.slice(3).every((r) => r.status === 'rejected' && r.reason instanceof HashingBusy),
    ).toBe(true);
    expect(gate.full).toBe(true);
    // A third of a second later, one more.
    now += 340;
    expect(gate.full).toBe(false);
    await hash(6);
    await expect(hash(7)).rejects.toBeInstanceOf(HashingBusy);
    // Idle for a minute: the bucket holds one second's worth, no more.
    now += 60_000;
    const later = await Promise.allSettled([8, 9, 10, 11].map(hash));
    expect(later.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
  });

  it('queues beyond its concurrency and refuses beyond its queue', async () => {
    const gate = new HashingGate(1, 1);
    let release!: () => void;
    const running = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    const queued = gate.run(() => Promise.resolve('second'));
    expect(gate.full).toBe(true);
    await expect(gate.run(() => Promise.resolve('third'))).rejects.toBeInstanceOf(HashingBusy);
    release();
    await running;
    await expect(queued).resolves.toBe('second');
    expect(gate.full).toBe(false);
  });

  it('counts reservations at once, so a burst arriving together cannot all pass, and takes back released ones', () => {
    const gate = new HashingGate(1, 2);
    const burst = Array.from({ length: 10 }, () => {
      try {
        return gate.reserve();
      } catch (error) {
        return error;
      }
    });
    // One slot and two places in the queue: three reserved, seven refused before any ran.
    expect(burst.filter((entry) => entry instanceof HashingBusy)).toHaveLength(7);
    const [first] = burst as ReturnType<HashingGate['reserve']>[];
    first!.release();
    expect(gate.full).toBe(false);
    const again = gate.reserve();
    expect(gate.full).toBe(true);
    again.release();
    // Released twice, or after running, it gives back nothing more.
    again.release();
    expect(gate.full).toBe(false);
    gate.reserve();
    expect(gate.full).toBe(true);
  });
});
