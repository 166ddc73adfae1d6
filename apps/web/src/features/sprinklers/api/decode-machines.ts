/*
 * The machines' answers as their schemas decode them, for an answer handed over before its schema
 * has come (lib/checked-later.ts): a machine's lat and lng come as numeric strings
 * (NumericStringSchema) and are numbers decoded; nothing else in them changes. lib/checked-later.fresh-modules.test.ts
 * holds these to the schemas. An answer of another shape is left as it came: its check refuses it.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A machine of the list or its detail. */
export function decodeMachine(wire: unknown): unknown {
  return isRecord(wire) ? { ...wire, lat: Number(wire.lat), lng: Number(wire.lng) } : wire;
}

/** A page of the machines table. */
export function decodeMachinePage(wire: unknown): unknown {
  return isRecord(wire) && Array.isArray(wire.data) ? { ...wire, data: wire.data.map(decodeMachine) } : wire;
}
