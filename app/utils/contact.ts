/** The organiser's ways to reach a team's captain (decision 046). Pure: safe in the browser bundle. */

/** The phone as wa.me wants it: country code and number, digits only (an Indian 10-digit number gets 91); null when it is no phone. */
export function whatsAppNumber(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  if (/^0?[6-9]\d{9}$/.test(digits)) return `91${digits.slice(-10)}`;
  if (/^91[6-9]\d{9}$/.test(digits)) return digits;
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

/** The short text the organiser's WhatsApp opens with: it names the tournament and the team. */
export const captainMessage = (tournamentName: string, teamName: string) =>
  `Hi! This is the organiser of ${tournamentName} on Custom Room, about your team ${teamName}.`;

/** https://wa.me/91XXXXXXXXXX?text=… , or null when the phone has no usable number. */
export function whatsAppLink(phone: string, text: string): string | null {
  const number = whatsAppNumber(phone);
  return number ? `https://wa.me/${number}?text=${encodeURIComponent(text)}` : null;
}
