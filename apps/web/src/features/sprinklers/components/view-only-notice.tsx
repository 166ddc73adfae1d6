import { EyeIcon } from '@/ui/icons';

/**
 * The one line a user with a *watch* grant reads on a machine's pages, in place of the controls
 * the server would refuse them: why they can see the machine but not move or reprogram it.
 */
export function ViewOnlyNotice({ message }: { message: string }) {
  return (
    <p
      role="note"
      data-testid="view-only"
      className="flex items-start gap-2 rounded-lg border border-line bg-surface-muted px-3 py-2 text-sm font-medium"
    >
      <EyeIcon className="mt-0.5 size-5 shrink-0 text-ink-muted" />
      <span>{message}</span>
    </p>
  );
}
