// drizzle-kit's settings: the schema, where the migrations go, and the database (the libpq
// variables, as psql and node-postgres read them).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './schema.ts',
  out: process.env.DRIZZLE_OUT ?? './drizzle',
  dbCredentials: {
    host: process.env.PGHOST ?? 'localhost',
    port: Number(process.env.PGPORT ?? 5432),
    user: process.env.PGUSER,
    password: process.env.PGPASSWORD,
    database: process.env.PGDATABASE ?? 'postgres',
    ssl: false,
  },
});
