/**
 * The contracts' declarations of what a first screen reads (a machine's page, the machines list
 * and the farms it can be switched to, the session's user), of the live events they follow, and
 * of the motion commands the machine page sends: with them come zod and their schemas, fetched
 * once the first screen has shown its data (lib/checked-later.ts), not before it paints.
 */
export {
  LiveEventSchema,
  MachineListEventSchema,
  MotionBodySchema,
  adviceEndpoints,
  farmsEndpoints,
  machineHistoryEndpoints,
  sprinklersEndpoints,
  usersEndpoints,
  weatherEndpoints,
} from '@pivot/contracts';
