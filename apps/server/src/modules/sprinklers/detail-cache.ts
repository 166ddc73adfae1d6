import type { AssignedUser, Program } from '@pivot/contracts';
import type { WeatherNear } from '../weather';
import type { SprinklerRow } from './sprinklers.repository';

/**
 * What a machine's detail shows besides its live state, as of the machine's `revision`: valid
 * while the machine's revision is the same (docs/architecture.md, "The machine detail").
 */
export type CachedDetail = {
  sprinkler: SprinklerRow;
  programs: Program[];
  users: AssignedUser[];
  weather: WeatherNear;
};

/**
 * The details of the machines asked for most recently, at most `capacity` of them: asking for
 * one more forgets the one asked for longest ago (a Map keeps its keys in insertion order).
 */
export class DetailCache {
  private readonly entries = new Map<number, CachedDetail>();

  constructor(private readonly capacity: number) {}

  get(sprinklerId: number): CachedDetail | undefined {
    const entry = this.entries.get(sprinklerId);
    if (entry) {
      this.entries.delete(sprinklerId);
      this.entries.set(sprinklerId, entry);
    }
    return entry;
  }

  set(sprinklerId: number, entry: CachedDetail): void {
    this.entries.delete(sprinklerId);
    this.entries.set(sprinklerId, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
