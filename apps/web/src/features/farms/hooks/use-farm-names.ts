import { useSwitchableFarms } from '../api/get-switchable-farms';

/**
 * The names of the farms a person with more than one can switch to, by id: what the machines
 * list names each machine's farm by. Undefined for one farm, or until they are read.
 */
export function useFarmNames(): ReadonlyMap<number, string> | undefined {
  const { data: farms } = useSwitchableFarms();
  return Array.isArray(farms) && farms.length > 1 ? new Map(farms.map((farm) => [farm.id, farm.name])) : undefined;
}
