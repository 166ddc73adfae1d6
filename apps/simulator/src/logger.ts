export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export type Logger = Record<LogLevel, (message: string, fields?: LogFields) => void>;

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Writes one line per entry at or above the level: time, level, message and its fields as JSON. */
export function createLogger(level: LogLevel, write: (line: string) => void): Logger {
  const threshold = LEVELS.indexOf(level);
  const entry = (entryLevel: LogLevel) => (message: string, fields?: LogFields) => {
    if (LEVELS.indexOf(entryLevel) < threshold) return;
    const details = fields ? ` ${JSON.stringify(fields)}` : '';
    write(`${new Date().toISOString()} ${entryLevel.toUpperCase()} ${message}${details}\n`);
  };
  return { debug: entry('debug'), info: entry('info'), warn: entry('warn'), error: entry('error') };
}

export const silentLogger: Logger = createLogger('error', () => undefined);
