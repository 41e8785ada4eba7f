import Button, { type ButtonProps } from '@mui/material/Button';
import { useRef } from 'react';

interface FilePickerButtonProps extends Omit<ButtonProps, 'onClick' | 'onChange'> {
  /** What the file chooser offers (the input's `accept`). */
  accept: string;
  multiple?: boolean;
  /** The files chosen; not called when none was. */
  onFiles: (files: File[]) => void;
  /** The input's name or test id, for tests and scripts that hand it files directly. */
  input?: { 'aria-label'?: string; 'data-testid'?: string };
}

/**
 * A real button that opens the file chooser of a hidden input: a label dressed as a button has
 * no button role, and the button is the picker's one tab stop. The input is emptied after each
 * choice, so the same file chosen again (after removing it) counts.
 */
export function FilePickerButton({
  accept,
  multiple = false,
  onFiles,
  input,
  disabled,
  ...button
}: FilePickerButtonProps) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={ref}
        type="file"
        hidden
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        {...input}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      <Button {...button} disabled={disabled} onClick={() => ref.current?.click()} />
    </>
  );
}
