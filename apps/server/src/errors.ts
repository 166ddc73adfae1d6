import { ERROR_STATUS, type ErrorCode, type PasswordRule, type ValidationIssue } from '@pivot/contracts';

/** The one error type services throw; the error handler turns it into the answer. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    options: { headers?: Record<string, string>; issues?: ValidationIssue[] } = {},
  ) {
    super(code);
    this.status = ERROR_STATUS[code];
    this.headers = options.headers ?? {};
    this.issues = options.issues;
  }
  readonly headers: Record<string, string>;
  /** Where in the request the problem lies, as a validation error names it (a rule a schema cannot check). */
  readonly issues: ValidationIssue[] | undefined;
}

export type PasswordProblem = PasswordRule | 'incorrect' | 'mismatch' | 'unchanged';

/** A password the server will not take, with what is wrong per field (docs/product.md#entities password-error response). */
export class PasswordRejectedError extends Error {
  constructor(
    readonly fields: {
      oldPassword?: PasswordProblem[];
      newPassword?: PasswordProblem[];
      repeatNewPassword?: PasswordProblem[];
    },
  ) {
    super('password_rejected');
  }
}
