// Why a Steam sign-in did not happen, by the code that travels in the address.

export const AUTH_ERROR_MESSAGES = {
  cancelled: "Вход через Steam отменён.",
  expired: "Время входа истекло. Попробуйте войти ещё раз.",
  unavailable: "Steam сейчас не отвечает. Попробуйте войти позже.",
  failed: "Не удалось войти через Steam. Попробуйте ещё раз.",
} as const;

/** /auth-success's one-time code was wrong, used already, expired, or not this browser's. */
export const SIGN_IN_CODE_INVALID = "Ссылка входа устарела или уже использована. Войдите через Steam ещё раз.";
