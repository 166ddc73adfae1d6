import { type CommandMessage, CommandMessageSchema, ReplyMessageSchema, topics } from '@pivot/contracts';
import type { MqttClient } from 'mqtt';
import { parseJson } from './reporting-controller';

type Delivery = { type: string; motion: string | undefined; expiresAt: number; inTime: boolean };

/**
 * Watches, from inside a simulated machine's own connection, the commands it receives and the
 * replies it sends. Wired to the machine as a peripheral (`machine.speakFor(witness)`), which
 * hands it the machine's MQTT client; the broker lets nobody else read a machine's commands.
 * A command counts as carried out when it was delivered before it expired (the protocol's rule
 * for acting) and the machine did not refuse it; a command delivered again is the same command
 * (same id) and is carried out once. It hears a command before the machine does (and before the
 * machine answers it): `onReceived` acts at that moment, as a test that kills the server then does.
 */
export class CommandWitness {
  private readonly delivered = new Map<string, Delivery>();
  private readonly refused = new Set<string>();
  private readonly listeners: ((command: CommandMessage) => void)[] = [];

  constructor(private readonly machineId: string) {}

  start(client: MqttClient): void {
    // Before the machine's own listener: the witness hears a command before the machine acts on it.
    client.prependListener('message', (topic, payload) => {
      if (topic !== topics.commands(this.machineId)) return;
      const command = CommandMessageSchema.safeParse(parseJson(payload));
      if (!command.success) return;
      const { id, type, expiresAt } = command.data;
      const motion = command.data.type === 'motion' ? command.data.motion : undefined;
      const inTime = Date.now() <= expiresAt;
      const earlier = this.delivered.get(id);
      if (!earlier || (!earlier.inTime && inTime)) this.delivered.set(id, { type, motion, expiresAt, inTime });
      if (!earlier) for (const listener of this.listeners) listener(command.data);
    });
    client.on('packetsend', (packet) => {
      if (packet.cmd !== 'publish' || !packet.topic.endsWith(`/replies/${this.machineId}`)) return;
      const reply = ReplyMessageSchema.safeParse(parseJson(packet.payload as Buffer | string));
      if (reply.success && !reply.data.ok) this.refused.add(reply.data.id);
    });
  }

  stop(): void {
    // Nothing of its own to stop: it only listens on the machine's connection, which the machine closes.
  }

  /** Told of each command (once per id) as it arrives, before the machine acts on it or answers. */
  onReceived(listener: (command: CommandMessage) => void): void {
    this.listeners.push(listener);
  }

  /** Commands of this type (a motion command: of this motion, when given) delivered to the machine, carried out or not. */
  received(type: string, motion?: string): string[] {
    return [...this.delivered]
      .filter(([, delivery]) => delivery.type === type && (motion === undefined || delivery.motion === motion))
      .map(([id]) => id);
  }

  /** The ids of the commands of this type (and motion, when given) the machine carried out. */
  carriedOut(type: string, motion?: string): string[] {
    return this.received(type, motion).filter((id) => this.delivered.get(id)!.inTime && !this.refused.has(id));
  }
}
