import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { normalizePhone, visibleName } from './common.js';

const form = { required_error: 'Please fill in the form.', invalid_type_error: 'The request body must be a JSON object.' };

export const EmailSchema = z
  .string({ required_error: 'Email is required.', invalid_type_error: 'Email must be text.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email must be at most 254 characters.')
  .email('Enter a valid email address.')
  .transform((v) => v.toLowerCase());

export const PhoneSchema = z
  .string({ required_error: 'Phone number is required.', invalid_type_error: 'Phone number must be text.' })
  .trim()
  .min(1, 'Phone number is required.')
  .max(20, 'Enter a 10-digit Indian mobile number, e.g. 98765 43210.')
  .transform((v, ctx) => {
    const phone = normalizePhone(v);
    if (!phone) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Enter a 10-digit Indian mobile number, e.g. 98765 43210.' });
      return z.NEVER;
    }
    return phone;
  });

export const UsernameSchema = visibleName(
  z.string({ required_error: 'Username is required.', invalid_type_error: 'Username must be text.' }).trim(),
  'Username',
)
  .min(1, 'Username is required.')
  .min(3, 'Username must be at least 3 characters.')
  .max(20, 'Username must be at most 20 characters.')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, _ . and -.');

/** A new password: never trimmed, length per OWASP (at least 8, a generous maximum). */
export const NewPasswordSchema = z
  .string({ required_error: 'Password is required.', invalid_type_error: 'Password must be text.' })
  .min(1, 'Password is required.')
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

export const RegisterBodySchema = z.object(
  { email: EmailSchema, phone: PhoneSchema, username: UsernameSchema, password: NewPasswordSchema },
  form,
);

export const RegisterResponseSchema = z.object({ message: z.string(), username: z.string() });

export const LoginBodySchema = z.object(
  {
    emailOrPhone: z
      .string({ required_error: 'Email or phone is required.', invalid_type_error: 'Email or phone must be text.' })
      .trim()
      .min(1, 'Email or phone is required.')
      .max(254, 'Email or phone must be at most 254 characters.'),
    // Existing passwords are not held to today's length rules, only to a bound that keeps hashing cheap.
    password: z
      .string({ required_error: 'Password is required.', invalid_type_error: 'Password must be text.' })
      .min(1, 'Password is required.')
      .max(1024, 'Password must be at most 1024 characters.'),
  },
  form,
);

export const LoginResponseSchema = z.object({
  token: z.string(),
  username: z.string(),
  roles: z.array(z.string()),
  expiresAt: z.string().describe('ISO 8601 UTC time the token expires'),
});

/** Login with the device token of an earlier successful login on this browser (decision 022). */
export const LoginWithDeviceBodySchema = LoginBodySchema.extend({
  deviceToken: z
    .string({ invalid_type_error: 'Device token must be text.' })
    .max(200, 'Device token must be at most 200 characters.')
    .optional()
    .describe('The deviceToken of an earlier successful login of this account on this device; spares it the account lockout.'),
});
export const LoginWithDeviceResponseSchema = LoginResponseSchema.extend({
  deviceToken: z.string().describe('Keep it (a long-lived httpOnly cookie) and send it with the next login of this account.'),
});

export const MeResponseSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  phone: z.string().describe('+91XXXXXXXXXX'),
  roles: z.array(z.string()),
  unreadNotifications: z
    .number()
    .int()
    .optional()
    .describe('Unread notifications (issue 19, decision 044), counted up to 100: the nav shows it without another call.'),
});

export const PasswordResetRequestBodySchema = z.object({ email: EmailSchema }, form);

export const PasswordResetConfirmBodySchema = z.object(
  {
    token: z
      .string({ required_error: 'The reset link is incomplete.', invalid_type_error: 'The reset link is incomplete.' })
      .trim()
      .min(1, 'The reset link is incomplete.')
      .max(200, 'This reset link is invalid or has expired.'),
    password: NewPasswordSchema,
  },
  form,
);
