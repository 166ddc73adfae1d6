/** One polygon of a prescription file, its rings [longitude, latitude], with its feature's attributes. */
export type PrescriptionZone = { rings: [number, number][][]; values: Record<string, unknown> };
