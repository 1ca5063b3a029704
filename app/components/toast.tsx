import { useCallback, useEffect, useRef, useState } from "react";

export const TOAST_MS = 2000;

export interface ToastMessage {
  text: string;
  tone: "info" | "error";
}

/** A short message (e.g. after a purchase) that removes itself after 2 s. */
export function useToast() {
  const [message, setMessage] = useState<ToastMessage | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const show = useCallback((text: string, tone: ToastMessage["tone"] = "info") => {
    window.clearTimeout(timer.current);
    setMessage({ text, tone });
    timer.current = window.setTimeout(() => setMessage(null), TOAST_MS);
  }, []);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  return { message, show };
}

/** A polite live region, always in the page so screen readers announce what appears in it. */
export function Toast({ message }: { message: ToastMessage | null }) {
  return (
    <div className="toast-region" aria-live="polite">
      {message ? (
        <div className={`toast toast--${message.tone}`} role="status">
          {message.text}
        </div>
      ) : null}
    </div>
  );
}
