// Why a Steam sign-in did not happen, by the code that travels in the address.

export const AUTH_ERROR_MESSAGES = {
  cancelled: "Вход через Steam отменён.",
  expired: "Время входа истекло. Попробуйте войти ещё раз.",
  unavailable: "Steam сейчас не отвечает. Попробуйте войти позже.",
  failed: "Не удалось войти через Steam. Попробуйте ещё раз.",
} as const;
