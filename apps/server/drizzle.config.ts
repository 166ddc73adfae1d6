import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every module keeps its tables in its own folder (docs/decisions/0001-database-access.md).
  schema: './src/modules/*/*.table.ts',
  out: './drizzle',
  casing: 'snake_case',
});
