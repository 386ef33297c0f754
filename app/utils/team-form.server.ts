/**
 * The team forms' rules are the gateway's own schemas (one source for each rule): a refusal the
 * browser would only learn about after a round trip to the gateway is caught here first, with the
 * same message. The gateway still checks everything again.
 */
export {
  TeamCreateSchema as TeamCreateFormSchema,
  TeamUpdateSchema as TeamUpdateFormSchema,
  PaymentSubmitSchema as PaymentFormSchema,
} from '@custom-room/contract';
