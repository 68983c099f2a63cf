// ByteWindow: room in rank order within a byte budget; one job always runs, however large.
import { describe, expect, it } from 'vitest';
import { ByteWindow } from './byte-window.js';

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('ByteWindow', () => {
  it('grants within the budget, in rank order, and more as memory is released', async () => {
    const window = new ByteWindow(100);
    const granted: string[] = [];
    const ask = (name: string, bytes: number, rank: number) => void window.acquire(bytes, rank).then(() => granted.push(name));
    ask('c', 60, 2);
    await settle();
    ask('a', 30, 0);
    ask('b', 50, 1);
    await settle();
    // c came first and fits; a (rank 0) fits beside it; b must wait for room
    expect(granted).toEqual(['c', 'a']);
    window.release(60);
    await settle();
    expect(granted).toEqual(['c', 'a', 'b']);
  });

  it('lets a job larger than the budget run alone, and a later small one wait behind it in rank order', async () => {
    const window = new ByteWindow(10);
    const granted: string[] = [];
    void window.acquire(1000, 0).then(() => granted.push('huge'));
    void window.acquire(1, 1).then(() => granted.push('small'));
    await settle();
    expect(granted).toEqual(['huge']);
    window.release(1000);
    await settle();
    expect(granted).toEqual(['huge', 'small']);
  });
});
