/** ₹50, or ₹40.50 with paise, in Indian digit grouping (₹1,00,000): the gateway's messages and refusals. */
export function rupeesText(paise: number): string {
  const whole = paise % 100 === 0;
  return `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 })}`;
}
