import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient, readAgain } from './query-client';

afterEach(() => queryClient.clear());

/** A query on screen whose reads the test answers by hand, in the order they were asked. */
function watchedQuery(key: string) {
  const reads: ((answer: string) => void)[] = [];
  const observer = new QueryObserver(queryClient, {
    queryKey: [key],
    queryFn: () => new Promise<string>((resolve) => reads.push(resolve)),
  });
  const stop = observer.subscribe(() => undefined);
  return { reads, shown: () => observer.getCurrentResult().data, stop };
}

describe('readAgain', () => {
  it('reads anew a query whose first read, begun before the change, is still in flight', async () => {
    const query = watchedQuery('first-read');
    expect(query.reads).toHaveLength(1);

    const readingAgain = readAgain({ queryKey: ['first-read'] });
    await Promise.resolve();
    query.reads[0]!('before the change');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(query.reads).toHaveLength(2);
    query.reads[1]!('after the change');
    await readingAgain;

    expect(query.shown()).toBe('after the change');
    query.stop();
  });
});
