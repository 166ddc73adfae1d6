import { EventEmitter } from 'node:events';
import type { MachineEvent } from '../../gateway/mqtt-gateway';

/** Passes each machine's live reports to the browsers watching it on this server instance. */
export class LiveHub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: MachineEvent): void {
    this.emitter.emit(event.machineId, event);
  }

  /** Calls the listener for every live event of the machine until the returned function is called. */
  subscribe(machineId: string, listener: (event: MachineEvent) => void): () => void {
    this.emitter.on(machineId, listener);
    return () => this.emitter.off(machineId, listener);
  }
}
