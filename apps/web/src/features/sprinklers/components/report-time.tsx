import { useState } from 'react';
import { useMachineValues } from '../hooks/use-machine-values';
import { useTimeAgo } from '../hooks/use-time-ago';

/**
 * When a report was: "2 min ago", kept up to date. The exact date and time shows on hover, and
 * beside it on a tap, a click or Enter (a touch screen has no hover); what shows is the button's name.
 */
export function ReportTime({ timestamp }: { timestamp: number }) {
  const ago = useTimeAgo(timestamp);
  const values = useMachineValues();
  const [exactShown, setExactShown] = useState(false);
  const exact = values.exactDate(timestamp);
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2">
      <button
        type="button"
        aria-expanded={exactShown}
        title={exact}
        onClick={() => setExactShown(!exactShown)}
        className="min-h-6 rounded-sm underline decoration-dotted underline-offset-4 hover:decoration-solid"
      >
        <time dateTime={new Date(timestamp).toISOString()}>{ago}</time>
      </button>
      {exactShown && <span className="whitespace-nowrap">{exact}</span>}
    </span>
  );
}
