import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A labelled `<select>` over `[value, label]` pairs whose labels are translation keys: the form control most
 * screens repeat (what kind of rows, which method, which purpose …).
 */
export function ChoiceSelect<V extends string>({
  label,
  name,
  value,
  choices,
  onChange,
  hint,
  disabled,
}: {
  label: ReactNode;
  name: string;
  value: V;
  choices: readonly (readonly [V, string])[];
  onChange: (value: V) => void;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <label>
      {label}
      <select name={name} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as V)}>
        {choices.map(([v, l]) => (
          <option key={v} value={v}>
            {t(l)}
          </option>
        ))}
      </select>
      {hint}
    </label>
  );
}
