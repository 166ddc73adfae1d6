/** Upper bounds (mm) of the watermap's colour classes; the last class is open-ended. */
export const WATER_CLASSES = [
  { upTo: 5, color: '#bae6fd' },
  { upTo: 10, color: '#7dd3fc' },
  { upTo: 20, color: '#38bdf8' },
  { upTo: 40, color: '#0284c7' },
  { upTo: Number.POSITIVE_INFINITY, color: '#1e3a8a' },
] as const;

export function waterColor(mm: number): string {
  return (WATER_CLASSES.find((waterClass) => mm < waterClass.upTo) ?? WATER_CLASSES.at(-1)!).color;
}
