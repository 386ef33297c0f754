import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoginFormSchema, RegisterFormSchema, ResetPasswordFormSchema } from '~/utils/account-schemas.server';
import { formFailure, gatewayFormErrors, parseForm, safeValues, UNAVAILABLE_FORM_MESSAGE } from '~/utils/forms.server';
import { GatewayError } from '~/utils/gateway.server';

function form(fields: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

describe('parseForm', () => {
  it('returns the parsed data on success', () => {
    const parsed = parseForm(form({ emailOrPhone: '  a@b.in ', password: ' secret ' }), LoginFormSchema);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data).toEqual({ emailOrPhone: 'a@b.in', password: ' secret ', redirectTo: '' });
  });

  it('gives one message per field and the input back without any password', () => {
    const parsed = parseForm(
      form({ email: 'not-an-email', phone: '12345', username: 'ab', password: 'short', redirectTo: '/tournaments/3' }),
      RegisterFormSchema,
    );
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.fieldErrors).toEqual({
      // The gateway's own message: the form's rules are the contract's (decision 035).
      email: 'Enter a valid email address.',
      phone: 'Enter a 10-digit Indian mobile number, e.g. 98765 43210.',
      username: 'Username must be at least 3 characters.',
      password: 'Password must be at least 8 characters.',
    });
    expect(parsed.values).toEqual({ email: 'not-an-email', phone: '12345', username: 'ab', redirectTo: '/tournaments/3' });
    expect(JSON.stringify(parsed)).not.toContain('short');
  });

  it('reports missing fields as required', () => {
    const parsed = parseForm(form({}), LoginFormSchema);
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.fieldErrors).toEqual({ emailOrPhone: 'Email or phone is required.', password: 'Password is required.' });
  });

  it('normalises Indian mobile numbers and lower-cases emails like the gateway', () => {
    const parsed = parseForm(
      form({ email: 'Player@Example.COM', phone: '+91 98765 43210', username: 'sniper_01', password: 'long enough' }),
      RegisterFormSchema,
    );
    expect(parsed.success && parsed.data).toMatchObject({ email: 'player@example.com', phone: '+919876543210', username: 'sniper_01' });
  });

  it('refuses usernames with other characters', () => {
    const parsed = parseForm(
      form({ email: 'a@b.in', phone: '9876543210', username: 'bad name!', password: 'long enough' }),
      RegisterFormSchema,
    );
    expect(!parsed.success && parsed.fieldErrors.username).toBe('Username may contain only letters, digits, _ . and -.');
  });

  it('tells a username with a hidden character what the gateway tells, keeping what was typed (decision 033)', () => {
    for (const username of ['Blaze\u034F', 'Jonathan\uFE0F', 'Jonathan\u{E0100}']) {
      const parsed = parseForm(form({ email: 'a@b.in', phone: '9876543210', username, password: 'long enough' }), RegisterFormSchema);
      expect(!parsed.success && parsed.fieldErrors.username).toBe('Username cannot contain invisible or direction-changing characters.');
      expect(!parsed.success && parsed.values.username).toBe(username);
    }
  });

  it('ties a password mismatch to the confirmation field, even alongside other errors, and never echoes either password or the token', () => {
    const mismatch = parseForm(
      form({ token: 'tok123', password: 'new password 1', confirmPassword: 'new password 2' }),
      ResetPasswordFormSchema,
    );
    expect(!mismatch.success && mismatch.fieldErrors).toEqual({ confirmPassword: 'The two passwords do not match.' });
    expect(!mismatch.success && mismatch.values).toEqual({});

    const both = parseForm(form({ token: 'tok123', password: 'short', confirmPassword: 'other' }), ResetPasswordFormSchema);
    expect(!both.success && both.fieldErrors).toEqual({
      password: 'Password must be at least 8 characters.',
      confirmPassword: 'The two passwords do not match.',
    });
  });

  it('puts issues without a path in formError', () => {
    const schema = z.object({ a: z.string() }).refine(() => false, 'Something about the whole form.');
    const parsed = parseForm(form({ a: 'x' }), schema);
    expect(!parsed.success && parsed.formError).toBe('Something about the whole form.');
  });
});

describe('safeValues', () => {
  it('drops every field whose name says password or token, and files', () => {
    const fd = form({ name: 'x', password: 'p', confirmPassword: 'p', newPassword: 'p', token: 't' });
    fd.append('picture', new Blob(['x']), 'a.png');
    expect(safeValues(fd)).toEqual({ name: 'x' });
  });
});

describe('gatewayFormErrors', () => {
  const fields = ['email', 'phone', 'username', 'password'];

  it('places the gateway field errors next to their fields', () => {
    const err = new GatewayError(409, 'An account with these details already exists.', {
      email: 'An account with this email already exists.',
      username: 'This username is already taken.',
    });
    expect(gatewayFormErrors(err, { fields, fallback: 'Registration failed! Please try again.' })).toEqual({
      fieldErrors: { email: 'An account with this email already exists.', username: 'This username is already taken.' },
      formError: null,
      status: 409,
    });
  });

  it('renames gateway field names and keeps errors for unknown fields as the form message', () => {
    const err = new GatewayError(400, 'Invalid input.', { emailOrPhone: 'Too long.', other: 'Something else.' });
    expect(gatewayFormErrors(err, { fields: ['login'], fallback: 'x', rename: { emailOrPhone: 'login' } })).toEqual({
      fieldErrors: { login: 'Too long.' },
      formError: 'Something else.',
      status: 400,
    });
  });

  it("uses the gateway's message when there are no field errors, else the fallback", () => {
    expect(
      gatewayFormErrors(new GatewayError(401, 'Invalid email/phone or password.'), { fields, fallback: 'Login failed. Please try again.' })
        .formError,
    ).toBe('Invalid email/phone or password.');
    expect(gatewayFormErrors(new GatewayError(401, ''), { fields, fallback: 'Login failed. Please try again.' }).formError).toBe(
      'Login failed. Please try again.',
    );
  });

  it('keeps the details and says the server could not be reached when the gateway is unavailable', () => {
    expect(gatewayFormErrors(new GatewayError(503, 'down', {}, true), { fields, fallback: 'x' })).toEqual({
      fieldErrors: {},
      formError: UNAVAILABLE_FORM_MESSAGE,
      status: 503,
    });
  });
});

describe('formFailure', () => {
  it('answers 400 with values, field errors and form error', () => {
    const result = formFailure({ values: { a: '1' }, fieldErrors: { a: 'bad' } }) as unknown as { data: unknown; init: ResponseInit };
    expect(result.init.status).toBe(400);
    expect(result.data).toEqual({ values: { a: '1' }, fieldErrors: { a: 'bad' }, formError: null });
  });
});
