/**
 * What the autopilot keeps of each machine between its looks (docs/autopilot.md, "What the
 * autopilot remembers"), stored beside the machine's mode and rules: what it last told the log,
 * its own pause, the rain skip not yet followed by a pass, the pass it started.
 */
import { z } from 'zod';

export const AutopilotMemorySchema = z.object({
  /** The last decision written to the activity log, as `decisionKey` gives it: the same one is not written again. */
  told: z.string().optional(),
  /** The autopilot holds the machine for the wind or the frost. */
  pausedBy: z.enum(['wind', 'frost']).optional(),
  /** The last rain skip not yet followed by a pass. */
  lastSkip: z.object({ at: z.number(), forecastMm: z.number(), withinHours: z.number() }).optional(),
  /**
   * The pass the autopilot started: when (moved on by its pauses, so that the revolution counts
   * the hours it moves), the hours its revolution takes, the sectors it waters, and since when the
   * autopilot has held it, if it does.
   */
  run: z
    .object({
      startedAt: z.number(),
      revolutionHours: z.number(),
      areas: z.array(z.string()).default([]),
      pausedAt: z.number().optional(),
      /** A person asked for it with one tap ("Water now as advised"): ended with its revolution in any mode. */
      asked: z.boolean().optional(),
    })
    .optional(),
  /** The autopilot's last pass's end and sectors: not due again until the balance holds that day. */
  watered: z.object({ at: z.number(), areas: z.array(z.string()) }).optional(),
  /**
   * The start the last decision put off to a later moment (a cheaper tariff zone, the allowed
   * hours), ms since the epoch: in auto, the pass the autopilot will start then (a dealer's fleet).
   */
  plannedStartAt: z.number().optional(),
  /** "Irrigation due" is open for the machine (suggest). */
  dueAlerted: z.boolean().optional(),
  /** Since when a start has been under way: claimed before its commands are sent. */
  startingSince: z.number().optional(),
});
export type AutopilotMemory = z.infer<typeof AutopilotMemorySchema>;

/** The memory as stored; an unreadable one is forgotten (the next look decides afresh). */
export function parseMemory(stored: unknown): AutopilotMemory {
  const parsed = AutopilotMemorySchema.safeParse(stored);
  return parsed.success ? parsed.data : {};
}
