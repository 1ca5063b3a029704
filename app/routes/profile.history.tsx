// /history shows the same page as /purchases.
export { default, ErrorBoundary, loader, shouldRevalidate } from "./profile.purchases.tsx";
