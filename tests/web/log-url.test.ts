import { describe, expect, it } from 'vitest';
import { redactUrl } from '~/utils/log-url.server';

// Decision 031: no secret in a logged URL.
describe('redactUrl', () => {
  it('replaces the values of secret-looking parameters and keeps the rest as it came', () => {
    expect(redactUrl('/reset-password?token=abcDEF123_-')).toBe('/reset-password?token=[redacted]');
    expect(redactUrl('/reset-password?token=abc&x=1')).toBe('/reset-password?token=[redacted]&x=1');
    expect(redactUrl('http://127.0.0.1:3000/reset-password?token=abc&_data=routes%2Freset-password')).toBe(
      'http://127.0.0.1:3000/reset-password?token=[redacted]&_data=routes%2Freset-password',
    );
    for (const name of [
      'Token',
      'reset_token',
      'access_token',
      'password',
      'api_key',
      'apikey',
      'key',
      'sig',
      'signature',
      'secret',
      'code',
      'otp',
      'auth',
      'jwt',
      'session',
      '%74oken',
    ]) {
      expect(redactUrl(`/x?a=1&${name}=s3cret&b=2`), name).toBe(`/x?a=1&${name}=[redacted]&b=2`);
    }
    expect(redactUrl('/tournaments?day=2&q=monsoon%20cup')).toBe('/tournaments?day=2&q=monsoon%20cup');
    expect(redactUrl('/about')).toBe('/about');
  });

  it('also a secret inside a parameter that is itself a URL, and odd encodings', () => {
    expect(redactUrl('/login?redirectTo=%2Freset-password%3Ftoken%3Dabc')).toBe('/login?redirectTo=[redacted]');
    expect(redactUrl('/login?redirectTo=%2Fprofile')).toBe('/login?redirectTo=%2Fprofile');
    expect(redactUrl('/x?token')).toBe('/x?token=[redacted]');
    expect(redactUrl('/x?%E0%A4%A=1&token=a')).toBe('/x?%E0%A4%A=1&token=[redacted]');
    expect(redactUrl('/x?token=a=b&token=c')).toBe('/x?token=[redacted]&token=[redacted]');
  });
});
