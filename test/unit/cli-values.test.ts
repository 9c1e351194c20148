import { describe, expect, it } from 'vitest';
import { parseId, pick } from '../../cli/src/values';

const sizes = [
  { id: 1, key: 'micro', name: 'Micro' },
  { id: 3, key: 'small', name: 'Small' },
  { id: 4, key: 'extraSmall', name: 'Extra Small' },
];
const names = (s: (typeof sizes)[number]) => [s.key, s.name];

describe('the CLI reading what a user typed', () => {
  it('takes an id, a key, a name in any case, or the only name containing the text', () => {
    expect(pick(sizes, '4', 'size', names).id).toBe(4);
    expect(pick(sizes, 'small', 'size', names).id).toBe(3);
    expect(pick(sizes, 'EXTRA small', 'size', names).id).toBe(4);
    expect(pick(sizes, 'mic', 'size', names).id).toBe(1);
  });

  it('lists the choices when the text names none, or more than one', () => {
    expect(() => pick(sizes, 'huge', 'size', names)).toThrow(
      'No size matches "huge". Choose one of: 1 (micro, Micro); 3 (small, Small); 4 (extraSmall, Extra Small)',
    );
    expect(() => pick(sizes, 'm', 'size', names)).toThrow(/^More than one size matches "m"/);
  });

  it('takes only positive 32-bit ids', () => {
    expect(parseId('42')).toBe(42);
    for (const bad of ['0', '-1', '1.5', 'abc', '2147483648', undefined]) {
      expect(() => parseId(bad)).toThrow(/must be a positive whole number/);
    }
  });
});
