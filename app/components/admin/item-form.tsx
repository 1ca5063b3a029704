import { Form } from "react-router";
import { CATEGORY_TEXT } from "#core/messages/admin.ts";

export interface ItemFormValues {
  name: string;
  description: string;
  price: string;
  discount: string;
  img: string;
  serverType: string;
  categoryId: string;
  isOneTime: boolean;
  isAvailable: boolean;
  durations: string;
  startTime: string;
  endTime: string;
  maxQuantity: string;
  soldQuantity: number;
  grantCommands: string;
  revokeCommands: string;
}

export const EMPTY_ITEM: ItemFormValues = {
  name: "",
  description: "",
  price: "",
  discount: "0",
  img: "",
  serverType: "SOLO",
  categoryId: "",
  isOneTime: false,
  isAvailable: true,
  durations: "",
  startTime: "",
  endTime: "",
  maxQuantity: "",
  soldQuantity: 0,
  grantCommands: "",
  revokeCommands: "",
};

function Field({ label, children, wide }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, rendered inside the label
    <label className={wide ? "admin-field admin-field--wide" : "admin-field"}>
      {label}
      {children}
    </label>
  );
}

/** The item editor: every field the shop shows, the sale window and stock, the game commands. */
export function ItemForm({
  values,
  categories,
  serverTypes,
  submitLabel,
}: {
  values: ItemFormValues;
  categories: { id: number; name: string; hidden: boolean }[];
  serverTypes: readonly string[];
  submitLabel: string;
}) {
  return (
    <Form method="post" className="admin-form" aria-label="Товар">
      <input type="hidden" name="intent" value="save" />
      <Field label="Название" wide>
        <input name="name" required maxLength={100} defaultValue={values.name} />
      </Field>
      <Field label="Описание" wide>
        <input name="description" maxLength={1000} defaultValue={values.description} />
      </Field>
      <Field label="Цена, ₽ (за 30 дней у срочных)">
        <input name="price" required inputMode="decimal" defaultValue={values.price} />
      </Field>
      <Field label="Скидка, %">
        <input name="discount" inputMode="numeric" defaultValue={values.discount} />
      </Field>
      <Field label="Картинка (URL)" wide>
        <input
          name="img"
          required
          maxLength={500}
          defaultValue={values.img}
          placeholder="/images/shop/… или https://…"
        />
      </Field>
      <Field label="Тип сервера">
        <select name="serverType" defaultValue={values.serverType}>
          {serverTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Категория">
        <select name="categoryId" defaultValue={values.categoryId} required>
          <option value="">—</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.hidden ? `${category.name} (${CATEGORY_TEXT.hiddenMark})` : category.name}
            </option>
          ))}
        </select>
      </Field>
      <label className="admin-field">
        <span>
          <input type="checkbox" name="isOneTime" defaultChecked={values.isOneTime} /> Разовый товар
        </span>
      </label>
      <label className="admin-field">
        <span>
          <input type="checkbox" name="isAvailable" defaultChecked={values.isAvailable} /> Показывать в магазине
        </span>
      </label>
      <Field label="Сроки: по строке «дней», «дней = цена» или «до вайпа = цена»" wide>
        <textarea
          name="durations"
          rows={4}
          defaultValue={values.durations}
          placeholder={"7\n30 = 299\nдо вайпа = 150"}
        />
      </Field>
      <Field label="Начало продажи (МСК)">
        <input type="datetime-local" name="startTime" defaultValue={values.startTime} />
      </Field>
      <Field label="Конец продажи (МСК)">
        <input type="datetime-local" name="endTime" defaultValue={values.endTime} />
      </Field>
      <Field label={`Количество (продано: ${values.soldQuantity})`}>
        <input name="maxQuantity" inputMode="numeric" defaultValue={values.maxQuantity} />
      </Field>
      <Field label="Команды выдачи: {steamid} {nickname} {days} {server}" wide>
        <textarea name="grantCommands" rows={3} defaultValue={values.grantCommands} />
      </Field>
      <Field label="Команды изъятия" wide>
        <textarea name="revokeCommands" rows={2} defaultValue={values.revokeCommands} />
      </Field>
      <button type="submit" className="button">
        {submitLabel}
      </button>
    </Form>
  );
}
