/** Copies `text` to the clipboard; reports whether it worked. Hidden without JavaScript (CSS: `html.js`). */
export function CopyButton({
  text,
  label,
  onResult,
}: {
  text: string;
  label: string;
  onResult: (copied: boolean) => void;
}) {
  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error("Clipboard API unavailable");
      await navigator.clipboard.writeText(text);
      onResult(true);
    } catch {
      onResult(false);
    }
  }
  return (
    <button type="button" className="button button--small button--ghost copy-button" onClick={copy}>
      {label}
    </button>
  );
}
