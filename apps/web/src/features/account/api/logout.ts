import { sessionEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';

/** Ends the session on the server (the refresh cookie goes with it). */
export async function logout(): Promise<boolean> {
  return (await callEndpoint(sessionEndpoints.logout, {})) !== false;
}
