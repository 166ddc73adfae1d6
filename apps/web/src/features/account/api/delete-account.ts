import { usersEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';

/** Deletes the signed-in user's own account; the server ends its sessions with it. */
export async function deleteAccount(): Promise<boolean> {
  return (await callEndpoint(usersEndpoints.deleteSelf, {})) !== false;
}

export function useDeleteAccount() {
  return useAction(deleteAccount);
}
