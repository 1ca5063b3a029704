// The operator console's list filters: the services read them and the pages draw them, so they
// live here, away from the services' server code.

export const DELIVERY_FILTERS = ["problems", "failed", "stuck", "pending", "done", "cancelled"] as const;
export type DeliveryFilter = (typeof DELIVERY_FILTERS)[number];

export const PAYMENT_FILTERS = ["all", "pending", "completed", "cancelled", "failed"] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];
