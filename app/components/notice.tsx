/**
 * One line saying how an action went: a success is announced politely (`status`), an error at once
 * (`alert`). `block` is the page's class for it (`admin-notice`, `profile-notice`); the tone adds its
 * `--success` or `--error` modifier.
 */
export function Notice({ block, tone, text }: { block: string; tone: "success" | "error"; text: string }) {
  return (
    <p className={`${block} ${block}--${tone}`} role={tone === "success" ? "status" : "alert"}>
      {text}
    </p>
  );
}
