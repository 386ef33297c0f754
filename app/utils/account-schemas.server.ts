import { z } from 'zod';
import { visibleName } from '@custom-room/contract';

/**
 * The account forms' rules. They mirror the gateway's (gateway/src/schemas/auth.ts) so most mistakes
 * are caught without a round trip; the gateway still checks everything again.
 */

export const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const PHONE_MESSAGE = 'Enter a 10-digit Indian mobile number, e.g. 98765 43210.';

/** Indian mobile numbers: 10 digits starting 6-9, with or without +91 / 0, as +91XXXXXXXXXX. */
export function normalizePhone(input: string): string | null {
  const digits = input.replace(/[\s()-]/g, '');
  const m = /^(?:\+?91|0)?([6-9]\d{9})$/.exec(digits);
  return m ? `+91${m[1]}` : null;
}

const text = (label: string) => z.string({ required_error: `${label} is required.`, invalid_type_error: `${label} is required.` });

export const EmailSchema = text('Email')
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email must be at most 254 characters.')
  .email('Enter a valid email address, e.g. name@example.com.')
  .transform((v) => v.toLowerCase());

const PhoneSchema = text('Phone number')
  .trim()
  .min(1, 'Phone number is required.')
  .max(20, PHONE_MESSAGE)
  .transform((v, ctx) => {
    const phone = normalizePhone(v);
    if (!phone) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: PHONE_MESSAGE });
      return z.NEVER;
    }
    return phone;
  });

// The gateway's check for hidden characters comes first, so the form says the same as it (decision 033).
const UsernameSchema = visibleName(text('Username').trim(), 'Username')
  .min(1, 'Username is required.')
  .min(3, 'Username must be at least 3 characters.')
  .max(20, 'Username must be at most 20 characters.')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, _ . and -.');

/** A new password: never trimmed (spaces are allowed and count). */
const NewPasswordSchema = text('Password')
  .min(1, 'Password is required.')
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

const RedirectToSchema = z.string().optional().default('');

export const RegisterFormSchema = z.object({
  email: EmailSchema,
  phone: PhoneSchema,
  username: UsernameSchema,
  password: NewPasswordSchema,
  redirectTo: RedirectToSchema,
});

export const LoginFormSchema = z.object({
  emailOrPhone: text('Email or phone').trim().min(1, 'Email or phone is required.').max(254, 'Email or phone must be at most 254 characters.'),
  // Existing passwords are not held to today's length rule (the gateway does the same).
  password: text('Password').min(1, 'Password is required.').max(1024, 'Password must be at most 1024 characters.'),
  redirectTo: RedirectToSchema,
});

export const ForgotPasswordFormSchema = z.object({ email: EmailSchema });

export const ResetPasswordFormSchema = z
  .object({
    token: z.string({ required_error: 'The reset link is incomplete.' }).trim().min(1, 'The reset link is incomplete.'),
    password: NewPasswordSchema,
    confirmPassword: z.string({ required_error: 'Please type the new password again.' }).min(1, 'Please type the new password again.'),
  })
  .superRefine((v, ctx) => {
    if (v.confirmPassword && v.password !== v.confirmPassword) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['confirmPassword'], message: 'The two passwords do not match.' });
    }
  });
