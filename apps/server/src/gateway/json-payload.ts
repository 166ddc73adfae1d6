/** A message's payload as JSON, or undefined when it is not a JSON document. */
export function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
