/**
 * A server-sent event stream in miniature for tests that stub `fetch`: each opening is a stream
 * the test writes events into, or drops; an aborted request ends its stream as a closed page does.
 */
export class FakeEventStreams {
  streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  private readonly encoder = new TextEncoder();

  open(signal: AbortSignal | null | undefined): Response {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.streams.push(controller);
        signal?.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }

  private get current() {
    return this.streams.at(-1)!;
  }

  /** Raw text into the latest stream. */
  write(text: string) {
    this.current.enqueue(this.encoder.encode(text));
  }

  /** One event into the latest stream, its data as JSON. */
  sendEvent(name: string, data: unknown) {
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  drop() {
    this.current.close();
  }
}
