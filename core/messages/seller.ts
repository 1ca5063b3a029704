// How the footer and the terms name the seller (core/seller.ts).

import type { SellerDetails } from "../seller.ts";

export const SELLER_TEXT = {
  seller: "Продавец",
  inn: "ИНН",
  email: "E-mail поддержки",
  termsHeading: "Реквизиты продавца",
} as const;

/** True when the owner set at least one detail: only then is there anything to show. */
export function hasSellerDetails(seller: SellerDetails | null | undefined): seller is SellerDetails {
  return Boolean(seller && (seller.name || seller.inn || seller.email));
}
