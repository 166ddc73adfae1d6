import { EventEmitter } from 'node:events';
import type { MachineEvent } from '../../gateway/mqtt-gateway';

/** The name under which every machine's events are emitted too. */
const EVERY_MACHINE = Symbol('every machine');

/** Passes each machine's live reports to the browsers watching it on this server instance. */
export class LiveHub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: MachineEvent): void {
    this.emitter.emit(event.machineId, event);
    this.emitter.emit(EVERY_MACHINE, event);
  }

  /** Calls the listener for every live event of every machine until the returned function is called. */
  subscribeToAll(listener: (event: MachineEvent) => void): () => void {
    this.emitter.on(EVERY_MACHINE, listener);
    return () => this.emitter.off(EVERY_MACHINE, listener);
  }

  /** Calls the listener for every live event of the machine until the returned function is called. */
  subscribe(machineId: string, listener: (event: MachineEvent) => void): () => void {
    this.emitter.on(machineId, listener);
    return () => this.emitter.off(machineId, listener);
  }
}
