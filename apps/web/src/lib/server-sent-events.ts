export type ServerSentEvent = { name: string; data: string };

/**
 * Splits a text/event-stream into events as its chunks arrive (the WHATWG event-stream format:
 * `event:` and `data:` fields, a blank line ending each event, `:` lines as comments).
 */
export class ServerSentEventParser {
  private buffer = '';
  private name = '';
  private data: string[] = [];

  constructor(private readonly onEvent: (event: ServerSentEvent) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    // A chunk ending in \r may end a line or start a \r\n: wait for the next one to tell.
    const held = this.buffer.endsWith('\r') ? '\r' : '';
    const lines = this.buffer.slice(0, this.buffer.length - held.length).split(/\r\n|\r|\n/);
    // The last piece may be a line still arriving.
    this.buffer = (lines.pop() ?? '') + held;
    for (const line of lines) this.readLine(line);
  }

  private readLine(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onEvent({ name: this.name || 'message', data: this.data.join('\n') });
      this.name = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.name = value;
    else if (field === 'data') this.data.push(value);
  }
}
