import type { HttpSession } from './http-session';

let machineCount = 0;

/** A machine ID no other test of this run uses: letters, digits and "-", as the protocol allows. */
export function uniqueMachineId(prefix = 'E2E'): string {
  machineCount += 1;
  return `${prefix}-${Date.now().toString(36).toUpperCase()}-${machineCount}`;
}

/** Registers a controller through the API, as an administrator does first, and returns its secret (shown once). */
export async function registerController(admin: HttpSession, machineId: string): Promise<string> {
  const response = await admin.call('POST', '/api/device/', { machineId });
  if (response.status !== 201)
    throw new Error(`registering ${machineId}: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as { secret: string }).secret;
}
