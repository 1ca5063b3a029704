export const SERVER_STATUS_FAILED = "Ошибка при получении статуса серверов";
