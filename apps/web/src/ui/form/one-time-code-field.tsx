import { TextField, type TextFieldProps } from './text-field';

/**
 * The six digits an authenticator app shows: a phone's number pad, its one-time-code autofill,
 * the digits spaced apart; room for the space some apps show in the middle.
 */
export function OneTimeCodeField(props: Omit<TextFieldProps, 'inputMode' | 'autoComplete' | 'maxLength'>) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      spellCheck={false}
      className="font-mono tracking-[0.3em]"
      {...props}
    />
  );
}
