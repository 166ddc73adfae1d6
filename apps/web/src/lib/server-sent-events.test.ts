import { describe, expect, it } from 'vitest';
import { type ServerSentEvent, ServerSentEventParser } from './server-sent-events';

function parse(...chunks: string[]): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const parser = new ServerSentEventParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return events;
}

describe('ServerSentEventParser', () => {
  it('reads named events and skips comments such as heartbeats', () => {
    expect(parse(': connected\n\nevent: presence\ndata: {"online":true}\n\n: heartbeat\n\n')).toEqual([
      { name: 'presence', data: '{"online":true}' },
    ]);
  });

  it('puts together an event split anywhere between chunks, also between \\r and \\n', () => {
    expect(parse('event: tele', 'metry\r', '\ndata: {"a"', ':1}\r\n', '\r\n')).toEqual([
      { name: 'telemetry', data: '{"a":1}' },
    ]);
  });

  it('joins data lines with a line break and names an unnamed event "message"', () => {
    expect(parse('data: one\ndata: two\n\n')).toEqual([{ name: 'message', data: 'one\ntwo' }]);
  });

  it('holds back an event until its blank line arrives', () => {
    expect(parse('event: program\ndata: {}\n')).toEqual([]);
  });
});
