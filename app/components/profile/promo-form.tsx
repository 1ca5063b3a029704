import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { PROMO_ERROR_CODE, PROMO_TEXT, type PromoErrorCode } from "#core/messages/promos.ts";
import { useAuth } from "../../lib/auth-context.tsx";

export type PromoActionResult =
  | { success: string; error?: undefined; reason?: undefined }
  /** `code` is what was typed (kept in the field); `reason` tells the two 429s apart. */
  | { error: string; code: string; reason?: PromoErrorCode; success?: undefined };

/**
 * «Активация промокода». A plain POST form (works without JavaScript); with JavaScript it checks
 * for a blank code and a signed-out player before sending, and shows a spinner while it sends.
 */
export function PromoForm({ result }: { result: PromoActionResult | undefined }) {
  const navigation = useNavigation();
  const auth = useAuth();
  const formRef = useRef<HTMLFormElement>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const submitting = navigation.state === "submitting" && navigation.formAction === "/promocodes";

  // A new answer replaces any local message; a success clears the field.
  useEffect(() => {
    setLocalError(null);
    if (result?.success) formRef.current?.reset();
  }, [result]);

  const error = localError ?? (submitting ? null : (result?.error ?? null));
  const success = localError || submitting ? null : (result?.success ?? null);
  // The guessing pause is not the code's use limit: it reads and looks like a wait, not a dead code.
  const paused = !localError && result?.reason === PROMO_ERROR_CODE.tooManyAttempts;

  return (
    <Form
      method="post"
      action="/promocodes"
      className="promo-form"
      ref={formRef}
      aria-labelledby="promo-title"
      noValidate
      onSubmit={(event) => {
        const code = String(new FormData(event.currentTarget).get("code") ?? "");
        if (code.trim() === "") {
          event.preventDefault();
          setLocalError(PROMO_TEXT.empty);
        } else if (!auth.loading && !auth.isAuthenticated) {
          event.preventDefault();
          setLocalError(PROMO_TEXT.unauthorized);
        } else {
          setLocalError(null);
        }
      }}
    >
      <h2 id="promo-title">Активация промокода</h2>
      <div className="promo-form__row">
        <input
          className="input promo-form__input"
          type="text"
          name="code"
          placeholder="Введите промокод"
          aria-label="Промокод"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          defaultValue={result?.error ? result.code : ""}
          disabled={submitting}
          aria-invalid={error ? true : undefined}
          aria-describedby="promo-message"
        />
        <button type="submit" className="button promo-form__submit" disabled={submitting} aria-busy={submitting}>
          {submitting && <span className="profile-spinner" aria-hidden="true" />}
          Активировать
        </button>
      </div>
      <div id="promo-message" aria-live="polite">
        {error && (
          <p
            className={`promo-form__message promo-form__message--${paused ? "paused" : "error"}`}
            role="alert"
            data-reason={localError ? undefined : result?.reason}
          >
            {error}
          </p>
        )}
        {success && <p className="promo-form__message promo-form__message--success">{success}</p>}
      </div>
    </Form>
  );
}
