/** What to do with an account of the controller's name that the server did not make (an operator's own). */
export type ForeignAccount = 'refuse' | 'adopt';

/** Registering under the name of an account the server did not make, without saying to take it over. */
export class ForeignBrokerAccountError extends Error {
  constructor(readonly machineId: string) {
    super(`The broker has an account "${machineId}" that the server did not make`);
  }
}

/** A controller's account as the server would make it: its machine ID and its current secret. */
export type DeviceAccount = { machineId: string; secret: string };

/**
 * The accounts a broker keeps for machine controllers, where the broker keeps its own (Mosquitto's
 * dynamic security). The server is the only writer: it creates an account when an administrator
 * registers a controller, replaces its password on "new secret" and removes it with the
 * controller, and each change drops the controller's live connection at once. The server's
 * database is the source of truth: what the broker loses, the server makes again.
 */
export interface BrokerAccounts {
  /**
   * Creates the controller's account, or gives it this secret instead of the old one; its live
   * connection is dropped. An existing account the server did not make is taken over only with
   * 'adopt'; with 'refuse' it is left as it is and a ForeignBrokerAccountError thrown.
   */
  setDevice(machineId: string, secret: string, foreign: ForeignAccount): Promise<void>;
  /** Removes the controller's account (nothing if it has none); its live connection is dropped. */
  removeDevice(machineId: string): Promise<void>;
  /**
   * Makes again, one after another, the accounts of these controllers (and whatever they need,
   * such as a shared role the broker lost with them); an account that exists is left as it is,
   * connection and all. `done` hears of each.
   */
  restoreDevices(devices: readonly DeviceAccount[], done: (machineId: string, created: boolean) => void): Promise<void>;
  /**
   * Calls `listener` each time the connection to the broker is back after an outage: a broker
   * that restarted may have lost its accounts, so they are best compared at once.
   */
  onReconnected(listener: () => void): void;
  /** The machine IDs that have an account on the broker now. */
  listDevices(): Promise<string[]>;
  close(): Promise<void>;
}
