// Exits 0 when the service at the given URL accepts a connection within a few seconds.
import mqtt from 'mqtt';
import pg from 'pg';

const [kind, url] = process.argv.slice(2);
const TIMEOUT_MS = 3000;

async function canConnect() {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS });
    await client.connect();
    await client.query('select 1');
    await client.end();
    return;
  }
  if (kind === 'mqtt') {
    const client = await mqtt.connectAsync(url, { connectTimeout: TIMEOUT_MS, reconnectPeriod: 0 });
    await client.endAsync();
    return;
  }
  throw new Error(`unknown service kind ${kind}`);
}

canConnect().then(
  () => process.exit(0),
  () => process.exit(1),
);
