import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** What parent and child send each other over the IPC channel: plain objects told apart by type. */
export type Message = { type: string };
type Failure = { type: 'failed'; error: string };

/**
 * A helper script in a process of its own: simulated machines or a load generator in the
 * server's process would share its event loop and measure themselves as much as the server.
 * The child inherits tsx from this process's options, so it is a TypeScript file too.
 */
export class ChildScript<Request extends Message, Event extends Message> {
  private readonly received: Event[] = [];
  private readonly waiting = new Set<() => void>();
  private failure: Error | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: Event | Failure) => {
      if (message.type === 'failed') this.failure = new Error(`child script failed: ${(message as Failure).error}`);
      else this.received.push(message as Event);
      this.wake();
    });
    child.on('exit', (code) => {
      this.failure ??= new Error(`child script exited with ${code}`);
      this.wake();
    });
    // A request sent after the child ended (a run failing while another part still asks it):
    // the asker hears of it, where an unhandled 'error' would end the run before it cleans up.
    child.on('error', (error) => {
      this.failure ??= error;
      this.wake();
    });
  }

  static start<Request extends Message, Event extends Message>(script: URL): ChildScript<Request, Event> {
    return new ChildScript(fork(fileURLToPath(script), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }

  /** The child's process id, for its CPU time in /proc. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  send(message: Request): void {
    this.child.send(message);
  }

  /** The next event of the type from the child; throws if the child fails or exits first. */
  async next<T extends Event['type']>(type: T): Promise<Extract<Event, { type: T }>> {
    for (;;) {
      const index = this.received.findIndex((event) => event.type === type);
      if (index >= 0) return this.received.splice(index, 1)[0] as Extract<Event, { type: T }>;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => this.waiting.add(resolve));
    }
  }

  /** Sends a request and waits for the event that answers it. */
  ask<T extends Event['type']>(request: Request, answer: T): Promise<Extract<Event, { type: T }>> {
    this.send(request);
    return this.next(answer);
  }

  /** Ends the child, at once if it is still running. */
  async end(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill();
    await exited;
  }

  private wake(): void {
    for (const resolve of this.waiting) resolve();
    this.waiting.clear();
  }
}

/**
 * In the child: hands each request from the parent to the handler, which answers through
 * `tell`. A failure is reported to the parent; losing the parent ends the child.
 */
export function serveParent<Request extends Message, Event extends Message>(
  handle: (request: Request, tell: (event: Event) => void) => Promise<void>,
): void {
  const tell = (event: Event | Failure) => process.send?.(event);
  process.on('message', (request: Request) => {
    handle(request, tell).catch((error: unknown) =>
      tell({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
