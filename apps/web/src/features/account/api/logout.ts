import { MessageResponseSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';

/** Ends the session on the server (the refresh cookie goes with it). */
export async function logout(): Promise<boolean> {
  return (await apiCall({ method: 'POST', path: '/user/logout/', response: MessageResponseSchema })) !== false;
}
