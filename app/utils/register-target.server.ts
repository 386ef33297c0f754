import { gateway, GatewayError } from './gateway.server';
import { registeringFor } from './login-reasons';

/**
 * For a login or sign-up page on the way to registering a team (?redirectTo=/register/{id}): the
 * tournament's name, so the page can say "Log in to register for <name>". '' when the name cannot be
 * had (no such tournament, the gateway down): the page then says it without the name. null when the
 * visitor is not on the way to registering.
 */
export async function registerTargetName(request: Request, redirectTo: string): Promise<string | null> {
  const id = registeringFor(redirectTo);
  if (id === null) return null;
  try {
    return (await gateway.getTournament(request, id)).name;
  } catch (err) {
    if (err instanceof GatewayError) return '';
    throw err;
  }
}

/** The notice's words: "Log in to register for Monsoon Cup." (or "…your team." without a name). */
export function registerTargetWords(action: 'Log in' | 'Create an account', name: string): string {
  return `${action} to register ${name ? `for ${name}` : 'your team'}.`;
}
