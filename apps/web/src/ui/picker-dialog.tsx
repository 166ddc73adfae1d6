import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from './other-icons';
import { useDebouncedValue } from './use-debounced-value';
import { FormDialog } from './form-dialog';

/** How many candidates the list shows; a search narrows a long list down. */
export const PICKER_PAGE_SIZE = 20;

export type PickerOption = { key: number; label: string; detail?: string };

/** Tells one opening of a picker from the next, so each opening asks the server afresh. */
let openings = 0;

export type PickerDialogProps = {
  title: string;
  /** Names the list of candidates. */
  legend: string;
  searchLabel: string;
  emptyMessage: string;
  /** Identifies the candidates; the opening and the search text are added to it. */
  queryKey: readonly unknown[];
  /** One page of candidates matching the search, as options; false when the call failed. */
  fetchOptions: (search: string) => Promise<{ count: number; options: PickerOption[] } | false>;
  confirmLabel: string;
  /** Does what was picked; true closes the dialog. */
  onPick: (option: PickerOption) => Promise<boolean>;
  pending: boolean;
  onClose: () => void;
  /** More of the form under the candidates, such as how the picked one is to be granted. */
  children?: ReactNode;
};

/**
 * Picks one of the candidates the server finds (such as machines or users without access), searched
 * as typed. Each search's list is taken once while the dialog is open: the lists behind it are
 * read again after any change an administrator makes (or a reconnection), and a list that
 * reordered or lost a row under the user's pointer would have them pick someone else. The next
 * opening asks again.
 */
export function PickerDialog({
  title,
  legend,
  searchLabel,
  emptyMessage,
  queryKey,
  fetchOptions,
  confirmLabel,
  onPick,
  pending,
  onClose,
  children,
}: PickerDialogProps) {
  const { t } = useTranslation();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim());
  const [picked, setPicked] = useState<PickerOption | null>(null);
  const name = useId();
  const [opening] = useState(() => (openings += 1));
  const result = useQuery({
    queryKey: [...queryKey, 'opening', opening, search],
    queryFn: () => fetchOptions(search),
    placeholderData: keepPreviousData,
    // Static: never fetched again while shown, not even when every query is invalidated.
    staleTime: 'static',
    // Forgotten once the dialog closes, so the next opening starts from what the server has then.
    gcTime: 0,
  });
  const page = result.data || null;
  // A pick counts while it is on the list: a new search that leaves it out takes it back.
  const chosen = page?.options.find((option) => option.key === picked?.key) ?? null;

  let status: ReactNode = null;
  if (result.isPending) status = t('table.loading');
  else if (!page) status = t('table.failed');
  else if (page.options.length === 0) status = emptyMessage;

  const submit = async () => {
    if (chosen && (await onPick(chosen))) onClose();
  };

  return (
    <FormDialog
      title={title}
      submitLabel={confirmLabel}
      onSubmit={submit}
      onClose={onClose}
      pending={pending}
      submitDisabled={!chosen}
    >
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute top-2.5 left-3 size-5 text-ink-muted" />
        <input
          type="search"
          aria-label={searchLabel}
          placeholder={searchLabel}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          autoFocus
          className="h-10 w-full rounded-md border border-line bg-surface pr-3 pl-10 text-ink placeholder:text-ink-muted"
        />
      </div>
      <fieldset aria-busy={result.isFetching} className="flex min-w-0 flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">{legend}</legend>
        {status ? (
          <p className="rounded-lg bg-surface-muted px-4 py-6 text-center text-sm text-ink-muted">{status}</p>
        ) : (
          <ul className="flex max-h-[min(20rem,45dvh)] flex-col overflow-y-auto rounded-lg border border-line">
            {page?.options.map((option) => (
              <li key={option.key} className="border-t border-line first:border-t-0">
                <label className="flex cursor-pointer items-start gap-3 px-3 py-2.5 hover:bg-surface-muted has-[:checked]:bg-water-soft/60">
                  <input
                    type="radio"
                    name={name}
                    checked={chosen?.key === option.key}
                    onChange={() => setPicked(option)}
                    className="mt-0.5 size-5 shrink-0 accent-primary"
                  />
                  <span className="flex min-w-0 flex-col">
                    <span className="font-medium break-words">{option.label}</span>
                    {option.detail && <span className="text-sm break-words text-ink-muted">{option.detail}</span>}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {page && page.count > page.options.length && (
          <p className="text-sm text-ink-muted">
            {t('picker.more', { shown: page.options.length, total: page.count })}
          </p>
        )}
      </fieldset>
      {children}
    </FormDialog>
  );
}
