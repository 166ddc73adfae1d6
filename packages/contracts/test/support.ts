import { expect } from 'vitest';
import type { z } from 'zod';
import type { Position } from '../src/geojson';

export interface ReportedIssue {
  /** The issue's path joined with dots ('' for the root). */
  path: string;
  code: string;
  message: string;
}

/** Parses input that must be rejected and returns what the schema reported. */
export function issuesOf(schema: z.ZodType, input: unknown): ReportedIssue[] {
  const result = schema.safeParse(input);
  if (result.success) {
    throw new Error(`Expected the schema to reject ${JSON.stringify(input)}, it parsed`);
  }
  return result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    code: issue.code,
    message: issue.message,
  }));
}

/** Messages of the issues that input raises. */
export function messagesOf(schema: z.ZodType, input: unknown): string[] {
  return issuesOf(schema, input).map((issue) => issue.message);
}

/** Asserts that a strict object schema refuses a key it does not know (and accepts the input without it). */
export function expectUnknownKeyRejected(schema: z.ZodType, valid: Record<string, unknown>, path = ''): void {
  expect(schema.safeParse(valid).success).toBe(true);
  expect(issuesOf(schema, { ...valid, unexpected: true })).toContainEqual(
    expect.objectContaining({ code: 'unrecognized_keys', path }),
  );
}

/** Asserts that a schema rejects input; returns the issues for further checks. */
export function expectRejected(schema: z.ZodType, input: unknown): ReportedIssue[] {
  const issues = issuesOf(schema, input);
  expect(issues.length).toBeGreaterThan(0);
  return issues;
}

/** A closed square ring, [longitude, latitude] as RFC 7946, with its south-west corner at (lng, lat). */
export function square(lng: number, lat: number, size = 0.01): Position[] {
  return [
    [lng, lat],
    [lng + size, lat],
    [lng + size, lat + size],
    [lng, lat + size],
    [lng, lat],
  ];
}

/** A machine's live values before it has reported anything, as every list form of it shows them. */
export const NOT_YET_REPORTED = {
  distance: null,
  angle: null,
  status: null,
  speed: null,
  pressure: null,
  flow: null,
  online: false,
  reportedAt: null,
  lowPressureBar: 1,
  currentProgramName: null,
  currentProgramTimestamp: null,
} as const;
