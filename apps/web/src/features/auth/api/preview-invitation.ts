import { type InvitationPreview, farmsEndpoints } from '@pivot/contracts';
import { useCallback, useEffect, useState } from 'react';
import { type ApiFailure, requestEndpoint } from '@/lib/api-client';

export type InvitationPreviewResult =
  | { state: 'valid'; preview: InvitationPreview }
  /** Used, revoked, resent since, expired, or never made: the farm has to send a new one. */
  | { state: 'invalid' }
  /** No answer, or a server fault: its toast has been shown, and the page offers to ask again. */
  | { state: 'failed' };

const isInvalidLink = (failure: ApiFailure) => failure.error?.code === 'invalid_link';

/**
 * What a mailed invitation's page shows before it is accepted: the farm, the address, the role
 * and whether the address has an account (docs/roles.md, "Invitations"). A link that no longer
 * works is the page's to say, not a toast's.
 */
export async function previewInvitation(id: number, token: string): Promise<InvitationPreviewResult> {
  const result = await requestEndpoint(farmsEndpoints.previewInvitation, {
    params: { id },
    query: { token },
    handlesFailure: isInvalidLink,
  });
  if (result.ok) return { state: 'valid', preview: result.data };
  return isInvalidLink(result.failure) ? { state: 'invalid' } : { state: 'failed' };
}

export type InvitationPreviewState = InvitationPreviewResult | { state: 'loading' };

/**
 * The preview of one link, asked for once the page shows it (a public page: no TanStack Query
 * here, as on the other pages a signed-out visitor sees); `retry` asks again after a failure.
 */
export function useInvitationPreview(id: number, token: string): { result: InvitationPreviewState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  // The answer with the request it answers: another link, or another attempt, is loading until its own comes.
  const request = `${id}/${token}/${attempt}`;
  const [answered, setAnswered] = useState<{ request: string; result: InvitationPreviewResult } | null>(null);
  useEffect(() => {
    let current = true;
    void previewInvitation(id, token).then((result) => current && setAnswered({ request, result }));
    return () => {
      current = false;
    };
  }, [id, token, request]);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  return { result: answered?.request === request ? answered.result : { state: 'loading' }, retry };
}
