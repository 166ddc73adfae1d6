import type { ValidationIssue } from '@pivot/contracts';

/** The issues an error answer lists, each a path and a message; none when the answer lists none. */
export function readIssues(body: unknown): ValidationIssue[] {
  if (typeof body !== 'object' || body === null || !('issues' in body) || !Array.isArray(body.issues)) return [];
  return body.issues.filter(
    (issue): issue is ValidationIssue =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as Record<string, unknown>).path === 'string' &&
      typeof (issue as Record<string, unknown>).message === 'string',
  );
}

/** The answer's issues for a form's fields, or its message on `path` when it names no field. */
export function issuesOrMessage(body: unknown, message: string, path = 'body'): ValidationIssue[] {
  const issues = readIssues(body);
  return issues.length > 0 ? issues : [{ path, message }];
}
