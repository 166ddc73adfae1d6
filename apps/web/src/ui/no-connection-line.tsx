import { NoSignalIcon } from './icons';

/**
 * The one line a page shows while the app cannot reach its server: that what it shows is what
 * was known when the connection was lost, and why nothing can be sent meanwhile. A status, read
 * out once when it appears.
 */
export function NoConnectionLine({ message, detail }: { message: string; detail?: string }) {
  return (
    <div
      role="status"
      data-testid="no-connection"
      className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning-soft px-3 py-2 text-sm text-warning"
    >
      <NoSignalIcon className="mt-0.5 size-5 shrink-0" />
      <p className="flex flex-col gap-0.5">
        <strong className="font-semibold">{message}</strong>
        {detail && <span>{detail}</span>}
      </p>
    </div>
  );
}
