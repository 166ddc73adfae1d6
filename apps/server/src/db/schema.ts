/** Every table, for drizzle's query builder and migration generator. Each lives in its domain folder. */
export * from '../modules/auth/auth.table';
export * from '../modules/logs/logs.table';
export * from '../modules/mail/mail.table';
export * from '../modules/programs/programs.table';
export * from '../modules/sprinklers/sprinklers.table';
export * from '../modules/telemetry/telemetry.table';
export * from '../modules/users/users.table';
export * from '../modules/watermap/watermap.table';
export * from '../modules/weather/weather.table';
