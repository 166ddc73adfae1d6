import { TopicIdSchema } from '@pivot/contracts';

/** Throws a RangeError naming the option unless the value is a finite number in [min, max]. */
export function assertInRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be between ${min} and ${max}, not ${value}`);
  }
}

/** Throws a RangeError naming the option unless the value is a finite number above zero. */
export function assertPositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be above 0, not ${value}`);
}

/** IDs go into topics, so they follow the protocol's pattern. */
export function assertTopicId(id: string): void {
  if (!TopicIdSchema.safeParse(id).success) {
    throw new RangeError(`"${id}" is not a valid ID: use 1–64 characters of A–Z a–z 0–9 _ -`);
  }
}

/** The options with the defaults filled in where an option is missing or undefined. */
export function withDefaults<O extends object, D extends Partial<O>>(options: O, defaults: D): O & D {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...defaults, ...given } as O & D;
}
