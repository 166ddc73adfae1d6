import { machineMayPublish, machineMaySubscribe } from '@pivot/contracts';
import { sameSecret } from '../secrets';

/** Who a broker client is, once its credentials were checked. */
export type BrokerIdentity = { kind: 'server' } | { kind: 'machine'; machineId: string };

/** What a client presents when it connects. */
export type BrokerLogin = {
  clientId: string;
  username: string | undefined;
  password: string | undefined;
  /** Where the connection comes from, for the administrator's view and the log. */
  address: string;
};

/** The server's own broker account: the only identity that commands machines and reads them all. */
export type ServerCredentials = { username: string; password: string };

/**
 * The registered controllers, as the devices module knows them. The gateway holds this port and
 * the devices module fills it, so the core imports no module.
 */
export interface DeviceDirectory {
  /** Whether reports under this machine ID are taken: an administrator registered its controller. */
  admits(machineId: string): boolean;
  /** Whether this is the controller's current secret; `unknown` when no controller has this ID. */
  verify(machineId: string, secret: string): Promise<'accepted' | 'refused' | 'unknown'>;
  /** A controller connected with its secret. */
  connected(machineId: string, address: string): void;
  /** Someone was refused under a registered controller's ID. */
  refused(machineId: string, address: string): void;
}

/**
 * The rules every broker enforces, in one place: the embedded broker's hooks and the HTTP
 * endpoints EMQX asks both apply them, and Mosquitto's dynamic security is given the same
 * permissions (`machinePermissions` in the contracts).
 */
export class BrokerPolicy {
  private directory: DeviceDirectory | undefined;

  constructor(readonly server: ServerCredentials) {}

  /** Called once by the devices module: until then no machine is admitted. */
  trust(directory: DeviceDirectory): void {
    this.directory = directory;
  }

  admits(machineId: string): boolean {
    return this.directory?.admits(machineId) ?? false;
  }

  /**
   * The server, with its credentials and any client id; or a registered controller with its
   * current secret and its own machine ID as client id, so that nobody takes another's client id
   * (and with it, its session). Anything else is refused.
   */
  async authenticate(login: BrokerLogin): Promise<BrokerIdentity | null> {
    const { username, password } = login;
    if (username === undefined || password === undefined) return null;
    if (username === this.server.username) {
      return this.server.password && sameSecret(password, this.server.password) ? { kind: 'server' } : null;
    }
    if (!this.directory || this.isReserved(username)) return null;
    const verdict = await this.directory.verify(username, password);
    if (verdict === 'unknown') return null;
    if (verdict === 'accepted' && login.clientId === username) {
      this.directory.connected(username, login.address);
      return { kind: 'machine', machineId: username };
    }
    this.directory.refused(username, login.address);
    return null;
  }

  /** The server's username and the client ids it connects with are never a machine's. */
  isReserved(machineId: string): boolean {
    return machineId === this.server.username || machineId.startsWith(`${this.server.username}-`);
  }

  mayPublish(identity: BrokerIdentity | undefined, topic: string): boolean {
    if (!identity) return false;
    return identity.kind === 'server' || machineMayPublish(identity.machineId, topic);
  }

  maySubscribe(identity: BrokerIdentity | undefined, filter: string): boolean {
    if (!identity) return false;
    return identity.kind === 'server' || machineMaySubscribe(identity.machineId, filter);
  }
}
