/**
 * The items in runs of at most `size`: a statement with a parameter per value stops at 65,535
 * parameters, so a batch of thousands of rows goes in several.
 */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let from = 0; from < items.length; from += size) chunks.push(items.slice(from, from + size));
  return chunks;
}
