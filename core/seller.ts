// The seller's details (issue 20, item 10): who sells, their taxpayer number (ИНН) and the support
// e-mail. Card payments in Russia need them on the site; the footer and the terms show them when set.

/** What the pages get: each detail, or null when the owner hasn't set it. */
export interface SellerDetails {
  name: string | null;
  inn: string | null;
  email: string | null;
}

const WEIGHTS_10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

function checkDigit(digits: number[], weights: number[]): number {
  return (weights.reduce((sum, weight, index) => sum + weight * (digits[index] ?? 0), 0) % 11) % 10;
}

/** An ИНН: 10 digits (an organisation) or 12 (an individual entrepreneur), with the right check digits. */
export function isValidInn(value: string): boolean {
  if (!/^(\d{10}|\d{12})$/.test(value)) return false;
  const digits = [...value].map(Number);
  if (digits.length === 10) return checkDigit(digits, WEIGHTS_10) === digits[9];
  return checkDigit(digits, WEIGHTS_11) === digits[10] && checkDigit(digits, WEIGHTS_12) === digits[11];
}
