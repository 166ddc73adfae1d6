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
   * False when the broker has no account for this controller (Mosquitto lost it): the server
   * makes it again with the controller's secret within 30 s, or, for a controller whose secret it
   * does not hold, the controller cannot connect until it gets a new secret.
   */
  onBroker: z.boolean(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const DeviceListResponseSchema = z.array(DeviceSchema);
export type DeviceListResponse = z.infer<typeof DeviceListResponseSchema>;

export const RegisterDeviceBodySchema = z.strictObject({
  machineId: TopicIdSchema,
  /**
   * Where the broker keeps its own accounts (Mosquitto), an account of this name that the server
   * did not make is refused (`device_account_foreign`) unless this says to take it over: its
   * password, client id, roles and groups become a controller's.
   */
  adoptBrokerAccount: z.boolean().optional(),
});
export type RegisterDeviceBody = z.infer<typeof RegisterDeviceBodySchema>;

export const DeviceParamsSchema = z.strictObject({ machineId: TopicIdSchema });

/** The only answer that ever carries a secret: right after it was made. */
export const DeviceSecretResponseSchema = z.strictObject({
  device: DeviceSchema,
  /** 32 random bytes, base64url: 256 bits. */
  secret: z.string(),
});
export type DeviceSecretResponse = z.infer<typeof DeviceSecretResponseSchema>;

/**
 * The broker's accounts compared with the registered controllers by this server instance
 * (docs/operations.md, "When the broker loses its accounts").
 */
export const BrokerAccountsStatusSchema = z.strictObject({
  /**
   * Whether the broker keeps accounts the server gives it (Mosquitto's dynamic security). False
   * elsewhere: the broker asks the server at each connection, and nothing can go missing.
   */
  managed: z.boolean(),
  /** A comparison under way or asked for on this instance. */
  running: z.boolean(),
  /** The accounts made again (or found made) so far of those being made; null when none are. */
  progress: z.strictObject({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).nullable(),
  /** The last comparison this instance finished; null before the first. */
  lastCheck: z
    .strictObject({
      /** When it ended, ms since the epoch. */
      at: z.number(),
      /** Registered controllers the broker had no account for. */
      missing: z.number().int().nonnegative(),
      /** Of those, the accounts made again with the controller's own secret. */
      restored: z.number().int().nonnegative(),
      /** Of those, the controllers whose secret the server does not hold: each needs a new secret. */
      unrestorable: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type BrokerAccountsStatus = z.infer<typeof BrokerAccountsStatusSchema>;
