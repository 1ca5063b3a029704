// /history shows the same page as /purchases.
export { action, default, ErrorBoundary, loader, shouldRevalidate } from "./profile.purchases.tsx";
