/** `base`, or `base (2)`, `base (3)` … : the first that no program of the machine has. */
export function freeProgramName(base: string, taken: readonly string[]): string {
  const names = new Set(taken);
  let name = base;
  for (let count = 2; names.has(name); count += 1) name = `${base} (${count})`;
  return name;
}
