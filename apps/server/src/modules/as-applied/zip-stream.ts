import { Zip, ZipDeflate } from 'fflate';

/** A file to put in a zip: its name and its bytes, in chunks. */
export type ZipEntry = { name: string; chunks: Iterable<Uint8Array> };

/**
 * The entries as one zip file, written as it is made: each entry is deflated a chunk at a time
 * and its bytes handed on at once, so a large export never sits whole in memory.
 */
export async function* zipChunks(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | undefined;
  // Deflating runs synchronously within push(): its output is ready when push() returns.
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else ready.push(data);
  });
  const drain = function* (): Generator<Uint8Array> {
    if (failure) throw failure;
    yield* ready.splice(0);
  };
  for await (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    for (const chunk of entry.chunks) {
      file.push(chunk);
      yield* drain();
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
