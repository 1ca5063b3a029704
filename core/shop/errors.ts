// Purchase error texts as the spec's section 8 maps them.

export const INSUFFICIENT_FUNDS = "Недостаточно средств на балансе";
export const AUTH_REQUIRED = "Необходима авторизация";
export const PURCHASE_FAILED = "Произошла ошибка при покупке предмета";

export function isInsufficientFunds(message: string | null | undefined): boolean {
  return !!message && /недостаточно средств|insufficient (funds|balance)/i.test(message);
}

/** 401: Необходима авторизация; any insufficient-funds message: Недостаточно средств на балансе; else the server's text. */
export function purchaseErrorText(status: number, error: string | null | undefined): string {
  if (status === 401) return AUTH_REQUIRED;
  if (isInsufficientFunds(error)) return INSUFFICIENT_FUNDS;
  return error?.trim() ? error : PURCHASE_FAILED;
}
