import { Zip, ZipDeflate } from 'fflate';
import { TimeSlicer } from '../../time/time-slicer';

/** A file to put in a zip: its name and its bytes, in chunks. */
export type ZipEntry = { name: string; chunks: Iterable<Uint8Array> };

/** What a large file is cut into, so that deflating it can pause between the pieces. */
const PIECE_BYTES = 64 * 1024;

/** The bytes in pieces of at most 64 KiB (views, not copies). */
export function* inPieces(bytes: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += PIECE_BYTES) yield bytes.subarray(start, start + PIECE_BYTES);
}

/** A few milliseconds of making and deflating chunks, then the event loop is handed back. */
const SLICE_MS = 5;

/**
 * The entries as one zip file, written as it is made: each entry is deflated a chunk at a time
 * and its bytes handed on at once, so a large export never sits whole in memory. Making a chunk
 * and deflating it run on the event loop; between chunks it is handed back every few
 * milliseconds, so other calls and the machines' reports do not wait on an export: a reader
 * that takes every chunk at once (a fast socket) would otherwise get the whole file in one task.
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
  const slicer = new TimeSlicer(SLICE_MS);
  for await (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    for (const chunk of entry.chunks) {
      file.push(chunk);
      yield* drain();
      if (slicer.due()) await slicer.pause();
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
