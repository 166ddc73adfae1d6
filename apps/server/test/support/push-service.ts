import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export type ReceivedPush = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

/**
 * A push service of our own on 127.0.0.1 over https (a certificate made by openssl for the run),
 * standing in for the browsers' push services, which are out of reach here. It keeps what it is
 * sent and answers 201, or 410 Gone at `/gone…` paths as a service does for an unsubscribed browser,
 * or never at `/silent…` paths, as a push service that hangs (kept in `unanswered`).
 */
export async function startPushService() {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-push-'));
  const [certFile, keyFile] = [path.join(folder, 'push.crt'), path.join(folder, 'push.key')];
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
    ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile],
  ]);
  const [cert, key] = await Promise.all([readFile(certFile), readFile(keyFile)]);
  const received: ReceivedPush[] = [];
  const unanswered: string[] = [];
  const server = https.createServer({ cert, key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.startsWith('/silent')) {
        unanswered.push(request.url);
        return;
      }
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(request.url?.startsWith('/gone') ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    unanswered,
    /** The agent the server's push sender uses to trust this service's certificate. */
    agent: new https.Agent({ ca: cert }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** What a browser keeps for one subscription: its key pair and the auth secret it gives the server. */
export function browserSubscriptionKeys() {
  const keyPair = crypto.createECDH('prime256v1');
  keyPair.generateKeys();
  const authSecret = crypto.randomBytes(16);
  return {
    keyPair,
    authSecret,
    keys: { p256dh: keyPair.getPublicKey('base64url'), auth: authSecret.toString('base64url') },
  };
}

const hkdf = (salt: Buffer, secret: Buffer, info: Buffer, length: number) =>
  Buffer.from(crypto.hkdfSync('sha256', secret, salt, info, length));

/**
 * Decrypts a push message as the browser does (RFC 8291 with the aes128gcm coding of RFC 8188),
 * written from the RFCs rather than with the library the server encrypts with, so the test does
 * not agree with the server only by sharing its code.
 */
export function decryptPush(body: Buffer, { keyPair, authSecret }: ReturnType<typeof browserSubscriptionKeys>) {
  const salt = body.subarray(0, 16);
  const keyIdLength = body[20]!;
  const senderPublicKey = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keyPair.getPublicKey(), senderPublicKey]);
  const inputKey = hkdf(authSecret, keyPair.computeSecret(senderPublicKey), keyInfo, 32);
  const contentKey = hkdf(salt, inputKey, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, inputKey, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2 and optional zero padding.
  return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
}

/**
 * Checks a push request's VAPID signature (RFC 8292) against the server's public key, and returns
 * the token's claims.
 */
export function verifyVapid(authorization: string, serverPublicKey: string) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, token, key] = match;
  if (key !== serverPublicKey) throw new Error('signed with another key than the server publishes');
  const [header, claims, signature] = token!.split('.');
  const raw = Buffer.from(serverPublicKey, 'base64url');
  const publicKey = crypto.createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = crypto.verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID signature does not verify');
  return JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
}
