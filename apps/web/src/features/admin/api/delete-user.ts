import { usersEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

/** Deletes a user with their sessions and grants; their log entries stay. */
export async function deleteUser(id: number): Promise<boolean> {
  const done = (await callEndpoint(usersEndpoints.remove, { params: { id } })) !== false;
  // A failure may mean the user was gone already: the list is refreshed either way.
  await refreshAfterAdminChange();
  return done;
}

export function useDeleteUser() {
  return useAction(deleteUser);
}
