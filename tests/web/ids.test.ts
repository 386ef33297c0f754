import { describe, expect, it } from 'vitest';
import { ID_TEXT, idFromText } from '@custom-room/contract/constants';

describe('idFromText', () => {
  it('reads 1 to 9 digits, trimmed', () => {
    expect(idFromText('42')).toBe(42);
    expect(idFromText(' 7 ')).toBe(7);
    expect(idFromText('999999999')).toBe(999999999);
  });
  it('refuses anything else', () => {
    for (const bad of ['', '0', '1234567890', '-1', '1.5', '1e3', 'abc', '٣']) expect(idFromText(bad), bad).toBeNull();
    expect(idFromText(undefined)).toBeNull();
    expect(idFromText(12)).toBeNull();
  });
  it('ID_TEXT is the pattern both sides share', () => {
    expect(ID_TEXT.test('123')).toBe(true);
    expect(ID_TEXT.test('12a')).toBe(false);
  });
});
