import { type ChangeEvent, useRef } from 'react';
import { Button, type ButtonProps } from './button';

export type FileButtonProps = Omit<ButtonProps, 'onClick' | 'ref'> & {
  /** The file picker's offer: endings and types, as the input's `accept`. */
  accept: string;
  onFile: (file: File) => void;
  /** The hidden input's name, where a test or an assistive tool looks for it. */
  inputLabel?: string;
};

/**
 * A button that opens the file picker and hands over the file chosen. The input itself stays
 * hidden, and forgets the file once handed over: the same file may be chosen again after it was fixed.
 */
export function FileButton({ accept, onFile, inputLabel, children, ...button }: FileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onFile(file);
  };
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        type="file"
        accept={accept}
        onChange={chosen}
        tabIndex={-1}
        hidden
        {...(inputLabel === undefined ? {} : { 'aria-label': inputLabel })}
      />
    </>
  );
}
