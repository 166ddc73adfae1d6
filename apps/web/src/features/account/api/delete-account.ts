import { MessageResponseSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';

/** Deletes the signed-in user's own account; the server ends its sessions with it. */
export async function deleteAccount(): Promise<boolean> {
  return (await apiCall({ method: 'DELETE', path: '/user/', response: MessageResponseSchema })) !== false;
}

export function useDeleteAccount() {
  return useAction(deleteAccount);
}
