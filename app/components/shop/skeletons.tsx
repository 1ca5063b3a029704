import { useEffect, useRef, useState } from "react";

export const SKELETON_COUNT = 4;
export const SKELETON_MIN_MS = 200;

/** True while `loading`, and for at least `minMs` once it has started. */
export function useMinimumLoading(loading: boolean, minMs = SKELETON_MIN_MS): boolean {
  const [shown, setShown] = useState(false);
  const startedAt = useRef(0);
  useEffect(() => {
    if (loading) {
      startedAt.current = Date.now();
      setShown(true);
      return;
    }
    const left = startedAt.current + minMs - Date.now();
    if (left <= 0) {
      setShown(false);
      return;
    }
    const timer = window.setTimeout(() => setShown(false), left);
    return () => window.clearTimeout(timer);
  }, [loading, minMs]);
  return loading || shown;
}

export function GridSkeletons() {
  return (
    <div className="shop-grid" role="status" aria-busy="true" aria-label="Загрузка товаров">
      {Array.from({ length: SKELETON_COUNT }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
        <div className="shop-card shop-card--skeleton" key={index} data-testid="shop-skeleton">
          <div className="skeleton skeleton--picture" />
          <div className="skeleton skeleton--line" />
          <div className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}
