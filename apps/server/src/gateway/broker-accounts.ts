/**
 * The accounts a broker keeps for machine controllers, where the broker keeps its own (Mosquitto's
 * dynamic security). The server is the only writer: it creates an account when an administrator
 * registers a controller, replaces its password on "new secret" and removes it with the
 * controller, and each change drops the controller's live connection at once.
 */
export interface BrokerAccounts {
  /** Creates the controller's account, or gives it this secret instead of the old one; its live connection is dropped. */
  setDevice(machineId: string, secret: string): Promise<void>;
  /** Removes the controller's account (nothing if it has none); its live connection is dropped. */
  removeDevice(machineId: string): Promise<void>;
  /** The machine IDs that have an account on the broker now. */
  listDevices(): Promise<string[]>;
  close(): Promise<void>;
}
