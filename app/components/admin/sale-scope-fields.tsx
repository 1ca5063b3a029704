import { serverTypeLabel } from "#core/format/server-type.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";

/** What a sale covers, for a dated sale and a wipe sale alike: categories and server types, none ticked meaning all. */
export function SaleScopeFields({ categories }: { categories: { id: number; name: string }[] }) {
  return (
    <>
      <fieldset className="admin-field admin-field--wide">
        <legend>Категории (ничего не выбрано — все)</legend>
        {categories.map((category) => (
          <label key={category.id}>
            <input type="checkbox" name="categoryIds" value={category.id} /> {category.name}
          </label>
        ))}
      </fieldset>
      <fieldset className="admin-field admin-field--wide">
        <legend>Типы серверов (ничего не выбрано — все)</legend>
        {SERVER_TYPES.map((type) => (
          <label key={type}>
            <input type="checkbox" name="serverTypes" value={type} /> {serverTypeLabel(type)}
          </label>
        ))}
      </fieldset>
    </>
  );
}
