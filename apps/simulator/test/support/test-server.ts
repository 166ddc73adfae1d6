import { randomUUID } from 'node:crypto';
import { type CommandMessage, PROTOCOL_VERSION, parseTopic, topicFilters, topics } from '@pivot/contracts';
import { type MqttClient, connectAsync } from 'mqtt';

export type ReceivedMessage = { topic: string; payload: string; retain: boolean };

/** What a test asks a machine to do; the id, reply topic, sending time and expiry are filled in unless given. */
export type CommandRequest = {
  [Type in CommandMessage['type']]: Omit<
    Extract<CommandMessage, { type: Type }>,
    'v' | 'id' | 'replyTo' | 'sentAt' | 'expiresAt'
  > & { id?: string; sentAt?: number; expiresAt?: number };
}[CommandMessage['type']];

/** As the server's default: a machine acts until the clock tolerance before expiry, so this leaves it 4 s. */
const DEFAULT_EXPIRY_MS = 5000;

/** Plays the server's side of the protocol: sends commands and records whatever arrives. */
export class TestServer {
  readonly messages: ReceivedMessage[] = [];
  readonly serverId = `test-${randomUUID().slice(0, 8)}`;
  /** Where machines answer this server: one topic per machine, as the server names them. */
  readonly repliesFilter = topicFilters.replies(this.serverId);

  private constructor(private readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      this.messages.push({ topic, payload: payload.toString('utf8'), retain: packet.retain });
    });
  }

  static async connect(brokerUrl: string): Promise<TestServer> {
    const server = new TestServer(await connectAsync(brokerUrl, { clientId: `test-server-${randomUUID()}` }));
    await server.watch(server.repliesFilter);
    return server;
  }

  async watch(...filters: string[]): Promise<void> {
    await this.client.subscribeAsync(filters, { qos: 1 });
  }

  /** Publishes a command to the machine and returns it as sent. */
  async send(machineId: string, request: CommandRequest): Promise<CommandMessage> {
    const command = {
      v: PROTOCOL_VERSION,
      replyTo: topics.replies(this.serverId, machineId),
      ...request,
      id: request.id ?? randomUUID(),
      sentAt: request.sentAt ?? Date.now(),
      expiresAt: request.expiresAt ?? Date.now() + DEFAULT_EXPIRY_MS,
    } as CommandMessage;
    await this.publish(topics.commands(machineId), JSON.stringify(command));
    return command;
  }

  async publish(topic: string, payload: string, retain = false): Promise<void> {
    await this.client.publishAsync(topic, payload, { qos: 1, retain });
  }

  on(topic: string): ReceivedMessage[] {
    return this.messages.filter((message) => message.topic === topic);
  }

  /** The replies that mention the command id, readable or not. */
  repliesTo(commandId: string): ReceivedMessage[] {
    return this.messages.filter(
      (message) => parseTopic(message.topic)?.kind === 'reply' && message.payload.includes(commandId),
    );
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }
}

/** Reads a payload as JSON, as a receiver would. */
export function json(message: ReceivedMessage | undefined): unknown {
  if (!message) throw new Error('No message');
  return JSON.parse(message.payload);
}
