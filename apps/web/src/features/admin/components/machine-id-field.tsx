import { TextField, type TextFieldProps } from '@/ui/form/text-field';

/** A machine's ID on the message broker, typed as it is written: capitals, no spelling help, at most 64 characters. */
export function MachineIdField(props: TextFieldProps) {
  return (
    <TextField
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={64}
      required
      autoFocus
      {...props}
    />
  );
}
