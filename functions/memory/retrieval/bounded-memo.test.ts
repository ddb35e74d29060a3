import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo.ts';

/** A memo of `text.length` that records every computation. */
function counted(max: number, maxChars?: number) {
  const computed: string[] = [];
  const memo = boundedMemo(
    max,
    (text: string) => {
      computed.push(text);
      return text.length;
    },
    maxChars,
  );
  return { memo, computed };
}

describe('boundedMemo', () => {
  it('computes a key once while it is kept, and drops the oldest past `max` entries', () => {
    const { memo, computed } = counted(2);
    expect([memo('a'), memo('bb'), memo('a')]).toEqual([1, 2, 1]);
    expect(computed).toEqual(['a', 'bb']);
    memo('ccc'); // 'a' goes: it was written first
    memo('bb');
    memo('a');
    expect(computed).toEqual(['a', 'bb', 'ccc', 'a']);
  });

  it('keeps string keys within `maxChars`, dropping the oldest until a new key fits', () => {
    const { memo, computed } = counted(100, 10);
    memo('aaaa'); // 4
    memo('bbbb'); // 8
    memo('cccc'); // 12 > 10: 'aaaa' goes
    memo('bbbb');
    memo('cccc');
    expect(computed).toEqual(['aaaa', 'bbbb', 'cccc']);
    memo('aaaa'); // back in, 'bbbb' goes
    memo('bbbb');
    expect(computed).toEqual(['aaaa', 'bbbb', 'cccc', 'aaaa', 'bbbb']);
  });

  it('never keeps a key longer than `maxChars`, and keeps what it held', () => {
    const { memo, computed } = counted(100, 10);
    const long = 'x'.repeat(11);
    memo('kept');
    expect([memo(long), memo(long)]).toEqual([11, 11]);
    memo('kept');
    expect(computed).toEqual(['kept', long, long]);
  });

  it('counts no characters for keys that are not strings', () => {
    const computed: number[] = [];
    const memo = boundedMemo(
      3,
      (n: number) => {
        computed.push(n);
        return n * 2;
      },
      1,
    );
    expect([memo(1), memo(2), memo(3), memo(1)]).toEqual([2, 4, 6, 2]);
    expect(computed).toEqual([1, 2, 3]);
  });
});
