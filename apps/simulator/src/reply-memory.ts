/**
 * The replies to the latest commands by command id, so that a command delivered twice is
 * answered again with the very same reply and not carried out again.
 */
export class ReplyMemory {
  private readonly replies = new Map<string, string>();

  constructor(private readonly capacity = 200) {}

  get(commandId: string): string | undefined {
    return this.replies.get(commandId);
  }

  remember(commandId: string, reply: string): void {
    this.replies.set(commandId, reply);
    if (this.replies.size > this.capacity) this.replies.delete(this.replies.keys().next().value!);
  }
}
