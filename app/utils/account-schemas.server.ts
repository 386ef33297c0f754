import { z } from 'zod';
import { EmailSchema, LoginBodySchema, PasswordResetConfirmBodySchema, RegisterBodySchema } from '@custom-room/contract';

/**
 * The account forms' rules are the contract's (decision 035), the ones the gateway applies: most
 * mistakes are caught without a round trip, with the gateway's own message. The gateway still
 * checks everything again. The forms add only what the API does not take.
 */

const RedirectToSchema = z.string().optional().default('');

export const RegisterFormSchema = RegisterBodySchema.extend({ redirectTo: RedirectToSchema });

export const LoginFormSchema = LoginBodySchema.extend({ redirectTo: RedirectToSchema });

export const ForgotPasswordFormSchema = z.object({ email: EmailSchema });

export const ResetPasswordFormSchema = PasswordResetConfirmBodySchema.extend({
  confirmPassword: z.string({ required_error: 'Please type the new password again.' }).min(1, 'Please type the new password again.'),
}).superRefine((v, ctx) => {
  if (v.confirmPassword && v.password !== v.confirmPassword) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['confirmPassword'], message: 'The two passwords do not match.' });
  }
});
