import type { AssignedUser, Program } from '@pivot/contracts';
import type { WeatherNear } from '../weather';
import type { SprinklerRow } from './sprinklers.repository';

/**
 * What a machine's detail shows besides its live state, as of the machine's `revision`: valid
 * while the machine's revision is the same (docs/scaling.md, "The machine detail: cached between
 * visits"). Kept in an LruCache by machine id.
 */
export type CachedDetail = {
  sprinkler: SprinklerRow;
  programs: Program[];
  users: AssignedUser[];
  weather: WeatherNear;
};
