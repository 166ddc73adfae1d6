import { type CurrentProgramData, type ProgramBody, type WaterBalanceArea, isForbiddenZone } from '@pivot/contracts';

/** A rate as the program editor keeps it: mm to a tenth. */
const tenth = (value: number) => Math.round(value * 10) / 10;

/** The largest rate a sector may have (the contract's); a dose beyond it is held there for review. */
const MAX_RATE = 1000;

/**
 * A new program from the advice (issue 21, "Program from advice"): the sectors of the program the
 * machine runs, each with its advised gross dose as its rate. A sector the balance gives no dose
 * (nothing due before the season ends, or no crop zone in it) and the forbidden zones keep their
 * rates; the user reviews the program in the editor before sending it.
 */
export function programFromAdvice(
  current: CurrentProgramData,
  sectors: readonly WaterBalanceArea[],
  name: string,
): ProgramBody {
  const doses = new Map(sectors.map((sector) => [sector.name, sector.grossDose]));
  return {
    name,
    programData: {
      type: 'FeatureCollection',
      bbox: current.bbox,
      features: current.features.map((sector) => {
        const dose = doses.get(sector.properties.name);
        if (isForbiddenZone(sector) || dose === null || dose === undefined) return sector;
        return { ...sector, properties: { ...sector.properties, rate: Math.min(tenth(dose), MAX_RATE) } };
      }),
    },
  };
}

/** Whether any sector of the advice has a dose to put into a program. */
export function hasAdvisedDoses(sectors: readonly WaterBalanceArea[]): boolean {
  return sectors.some((sector) => sector.grossDose !== null);
}

/** `base`, or `base (2)`, `base (3)` … : the first that no program of the machine has. */
export function freeProgramName(base: string, taken: readonly string[]): string {
  const names = new Set(taken);
  let name = base;
  for (let count = 2; names.has(name); count += 1) name = `${base} (${count})`;
  return name;
}
