import { CommandMessageSchema, ReplyMessageSchema, topics } from '@pivot/contracts';
import type { MqttClient } from 'mqtt';
import { parseJson } from './reporting-controller';

type Delivery = { type: string; expiresAt: number; inTime: boolean };

/**
 * Watches, from inside a simulated machine's own connection, the commands it receives and the
 * replies it sends. Wired to the machine as a peripheral (`machine.speakFor(witness)`), which
 * hands it the machine's MQTT client; the broker lets nobody else read a machine's commands.
 * A command counts as carried out when it was delivered before it expired (the protocol's rule
 * for acting) and the machine did not refuse it; a command delivered again is the same command
 * (same id) and is carried out once.
 */
export class CommandWitness {
  private readonly delivered = new Map<string, Delivery>();
  private readonly refused = new Set<string>();

  constructor(private readonly machineId: string) {}

  start(client: MqttClient): void {
    client.on('message', (topic, payload) => {
      if (topic !== topics.commands(this.machineId)) return;
      const command = CommandMessageSchema.safeParse(parseJson(payload));
      if (!command.success) return;
      const { id, type, expiresAt } = command.data;
      const inTime = Date.now() <= expiresAt;
      const earlier = this.delivered.get(id);
      if (!earlier || (!earlier.inTime && inTime)) this.delivered.set(id, { type, expiresAt, inTime });
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

  /** Commands of this type delivered to the machine, carried out or not. */
  received(type: string): string[] {
    return [...this.delivered].filter(([, delivery]) => delivery.type === type).map(([id]) => id);
  }

  /** The ids of the commands of this type the machine carried out. */
  carriedOut(type: string): string[] {
    return this.received(type).filter((id) => this.delivered.get(id)!.inTime && !this.refused.has(id));
  }
}
