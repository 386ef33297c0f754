import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResetLink } from '../e2e/support/api';
import { longDate, noonUtcIn, shortDate } from '../e2e/support/ui';

describe('e2e support: expected dates', () => {
  it('formats a noon-UTC instant as the app shows it in India', () => {
    expect(shortDate('2026-09-05T12:00:00.000Z')).toBe('5 Sep 2026');
    expect(longDate('2026-03-05T12:00:00.000Z')).toBe('05 March 2026');
  });

  it('noonUtcIn gives 12:00 UTC, which is the same calendar day in Asia/Kolkata', () => {
    const iso = noonUtcIn(3);
    expect(iso).toMatch(/T12:00:00\.000Z$/);
    const india = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short', year: 'numeric' }).format(
      new Date(iso),
    );
    expect(india.replace('Sept', 'Sep')).toBe(shortDate(iso));
  });
});

describe('e2e support: readResetLink', () => {
  it('finds the newest reset link mailed to the address in the gateway log', async () => {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-unit-')), 'gateway.log');
    const mail = (to: string, token: string) =>
      JSON.stringify({
        level: 40,
        mail: { to, subject: 'Reset', text: `Hello,\n\nhttp://127.0.0.1:1234/reset-password?token=${token}\n\nBye` },
        msg: 'SMTP_URL is not set',
      });
    fs.writeFileSync(
      log,
      ['not json', mail('a@test.example', 'old'), mail('b@test.example', 'other'), mail('A@test.example', 'new'), ''].join('\n'),
    );
    await expect(readResetLink(log, 'a@test.example', 500)).resolves.toBe('http://127.0.0.1:1234/reset-password?token=new');
    await expect(readResetLink(log, 'nobody@test.example', 300)).rejects.toThrow(/no password reset mail to nobody@test\.example/);
    fs.rmSync(path.dirname(log), { recursive: true, force: true });
  });
});
