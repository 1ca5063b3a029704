import { formatRubles } from "#core/format/money.ts";
import type { ShopDuration } from "#core/shop/types.ts";
import { formatTerm, isUntilWipe, type UntilWipeOffer } from "#core/shop/until-wipe.ts";

interface DurationPickerProps {
  durations: ShopDuration[];
  discount: number;
  /** Controlled with JavaScript; without it the radios are plain form fields. */
  value?: number | null;
  onChange?: (days: number) => void;
  /** Without JavaScript: the duration checked at first (the one a top-up came back for). */
  defaultDays?: number | null;
  /** When «до вайпа» ends and whether that is soon (decision 139); null when it isn't offered. */
  untilWipe?: UntilWipeOffer | null;
}

/** Radio buttons named `duration` (whole days), each with its price. */
export function DurationPicker({
  durations,
  discount,
  value,
  onChange,
  defaultDays = null,
  untilWipe = null,
}: DurationPickerProps) {
  return (
    <fieldset className="durations">
      <legend>Срок действия</legend>
      {durations.map((duration) => (
        <label key={duration.days} className="durations__option">
          <input
            type="radio"
            name="duration"
            value={duration.days}
            required
            {...(onChange
              ? { checked: value === duration.days, onChange: () => onChange(duration.days) }
              : { defaultChecked: defaultDays === duration.days })}
          />
          <span className="durations__days">{formatTerm(duration.days)}</span>
          <span className="durations__price">
            {formatRubles(duration.discount_price)}
            {discount > 0 && duration.discount_price < duration.price ? (
              <s className="price__old">{formatRubles(duration.price)}</s>
            ) : null}
          </span>
          {untilWipe && isUntilWipe(duration.days) ? <UntilWipeEnds offer={untilWipe} /> : null}
        </label>
      ))}
    </fieldset>
  );
}

/** Under the «до вайпа» choice: when it ends, and a warning when that is soon (decision 139). */
export function UntilWipeEnds({ offer }: { offer: UntilWipeOffer }) {
  return (
    <span className="durations__ends" data-testid="until-wipe-ends">
      {offer.ends}
      {offer.soon ? <strong className="durations__soon">{offer.soon}</strong> : null}
    </span>
  );
}
