/**
 * Every endpoint, per domain (`logsEndpoints.list`, …). The server registers its routes from
 * them and the web app calls through them (eslint.config.js refuses a path typed by hand).
 */
export * as adminEndpoints from './admin';
export * as adviceEndpoints from './advice';
export * as alertsEndpoints from './alerts';
export * as autopilotEndpoints from './autopilot';
export * as backupsEndpoints from './backups';
export * as brokerEndpoints from './broker';
export * as dealersEndpoints from './dealers';
export * as devicesEndpoints from './devices';
export * as farmsEndpoints from './farms';
export * as logsEndpoints from './logs';
export * as machineHistoryEndpoints from './machine-history';
export * as programsEndpoints from './programs';
export * as quarantineEndpoints from './quarantine';
export * as secondFactorEndpoints from './second-factor';
export * as sessionEndpoints from './session';
export * as sprinklersEndpoints from './sprinklers';
export * as usersEndpoints from './users';
export * as weatherEndpoints from './weather';
export * as webhooksEndpoints from './webhooks';
