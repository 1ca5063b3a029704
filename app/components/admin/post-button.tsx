import { Form } from "react-router";

/** A row action of the console: one button posting a few hidden fields to the page's own action. */
export function PostButton({
  fields,
  label,
  ghost = false,
}: {
  fields: Record<string, string | number>;
  label: string;
  ghost?: boolean;
}) {
  return (
    <Form method="post" className="admin-form admin-form--inline">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={ghost ? "button button--small button--ghost" : "button button--small"}>
        {label}
      </button>
    </Form>
  );
}
