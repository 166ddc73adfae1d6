import type { Random } from './random';
import { assertInRange } from './validation';

/**
 * Ways a machine can answer badly, for testing the server: after expiresAt, not at all, with
 * a payload the server cannot use, or twice. In every case the machine still carries the command out.
 */
export const MISBEHAVIOUR_KINDS = ['late', 'missing', 'malformed', 'duplicate'] as const;
export type MisbehaviourKind = (typeof MISBEHAVIOUR_KINDS)[number];

/** The share (0–1) of commands answered each way; together at most 1. */
export type MisbehaviourShares = Partial<Record<MisbehaviourKind, number>>;

export function assertMisbehaviourShares(shares: MisbehaviourShares): void {
  for (const kind of MISBEHAVIOUR_KINDS) assertInRange(`The share of ${kind} replies`, shares[kind] ?? 0, 0, 1);
  assertInRange('The shares of misbehaving replies together', shareTotal(shares), 0, 1);
}

function shareTotal(shares: MisbehaviourShares): number {
  return MISBEHAVIOUR_KINDS.reduce((total, kind) => total + (shares[kind] ?? 0), 0);
}

/** Decides, command by command, whether and how to misbehave. */
export class Misbehaviour {
  private forced: MisbehaviourKind | null = null;
  private readonly total: number;

  constructor(
    private readonly shares: MisbehaviourShares,
    private readonly random: Random,
  ) {
    assertMisbehaviourShares(shares);
    this.total = shareTotal(shares);
  }

  /** Makes the next command misbehave this way, whatever the shares. */
  forceNext(kind: MisbehaviourKind): void {
    this.forced = kind;
  }

  /** How to answer the next command: a kind of misbehaviour, or null to answer properly. */
  next(): MisbehaviourKind | null {
    const forced = this.forced;
    this.forced = null;
    if (forced || this.total === 0) return forced;
    let draw = this.random.next();
    for (const kind of MISBEHAVIOUR_KINDS) {
      draw -= this.shares[kind] ?? 0;
      if (draw < 0) return kind;
    }
    return null;
  }
}

/** Either JSON cut short or a well-formed reply of the wrong shape: both are replies the server cannot use. */
export function malformedReply(id: string, reply: string, random: Random): string {
  return random.chance(0.5) ? reply.slice(0, -1) : JSON.stringify({ v: 1, id, ok: 'yes', outcome: 'done' });
}
