import { z } from 'zod';
import { TopicIdSchema } from './mqtt';

/**
 * A machine controller's credentials for the broker: its MQTT username is the machine ID, its
 * password a secret the server generates and shows once (docs/protocol.md, "Security").
 */
export const DeviceSchema = z.strictObject({
  machineId: TopicIdSchema,
  /** When the first secret was made, ms since the epoch. */
  createdAt: z.number(),
  /** When the secret in use was made: createdAt, or the last "new secret". */
  secretCreatedAt: z.number(),
  /** The last accepted connection and where it came from; null until the controller connects. */
  lastConnectedAt: z.number().nullable(),
  lastAddress: z.string().nullable(),
  /** The last refused connection under this ID (a wrong or old secret); null if none. */
  lastRefusedAt: z.number().nullable(),
  /**
   * False when the broker lost this controller's account (Mosquitto's was reset while the
   * server could not reach it): the controller cannot connect until it gets a new secret.
   */
  onBroker: z.boolean(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const DeviceListResponseSchema = z.array(DeviceSchema);
export type DeviceListResponse = z.infer<typeof DeviceListResponseSchema>;

export const RegisterDeviceBodySchema = z.strictObject({ machineId: TopicIdSchema });
export type RegisterDeviceBody = z.infer<typeof RegisterDeviceBodySchema>;

export const DeviceParamsSchema = z.strictObject({ machineId: TopicIdSchema });

/** The only answer that ever carries a secret: right after it was made. */
export const DeviceSecretResponseSchema = z.strictObject({
  device: DeviceSchema,
  /** 32 random bytes, base64url: 256 bits. */
  secret: z.string(),
});
export type DeviceSecretResponse = z.infer<typeof DeviceSecretResponseSchema>;
