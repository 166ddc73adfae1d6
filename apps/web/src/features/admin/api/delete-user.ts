import { MessageResponseSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

/** Deletes a user with their sessions and grants; their log entries stay. */
export async function deleteUser(id: number): Promise<boolean> {
  const done = (await apiCall({ method: 'DELETE', path: `/user/${id}/`, response: MessageResponseSchema })) !== false;
  // A failure may mean the user was gone already: the list is refreshed either way.
  await refreshAfterAdminChange();
  return done;
}

export function useDeleteUser() {
  return useAction(deleteUser);
}
