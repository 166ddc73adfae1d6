import http from 'node:http';
import { webhookReceiverPortFromEnvironment } from './support/environment';
import { expect, signIn, test } from './support/fixtures';

test('a user adds a webhook on the account page, sees an internal address refused, and sees the test delivered', async ({
  page,
  createUser,
}) => {
  const port = webhookReceiverPortFromEnvironment();
  const received: { signature: string | undefined; body: string }[] = [];
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        signature: request.headers['x-pivot-signature'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  try {
    const user = await createUser();
    await signIn(page, user, '/dashboard/account');
    const card = page.locator('#webhooks');
    await expect(card.getByRole('heading', { name: 'Webhooki' })).toBeVisible();
    await expect(card.getByText('Brak webhooków.')).toBeVisible();

    const address = card.getByLabel('Adres webhooka');
    await address.fill('https://169.254.169.254/latest/meta-data/');
    await card.getByRole('button', { name: 'Dodaj webhook' }).click();
    await expect(address).toHaveAccessibleDescription(/Ten adres wskazuje do wnętrza sieci i jest niedozwolony/);

    const url = `http://127.0.0.1:${port}/hooks/farm`;
    await address.fill(url);
    await card.getByRole('button', { name: 'Dodaj webhook' }).click();
    const item = card.getByRole('listitem', { name: url });
    await expect(item).toBeVisible();
    await expect(item.getByText('Aktywny')).toBeVisible();
    await expect(item.getByText('Nigdy')).toBeVisible();

    await item.getByRole('button', { name: 'Wyślij test' }).click();
    await expect(item.getByRole('status')).toHaveText('Test doręczony (HTTP 200)');
    await expect(item.getByText('Nigdy')).toBeHidden();
    expect(received).toHaveLength(1);
    expect(received[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'test', language: 'pl' });

    await item.getByRole('button', { name: 'Wstrzymaj' }).click();
    await expect(item.getByText('Wstrzymany')).toBeVisible();
    await item.getByRole('button', { name: 'Usuń' }).click();
    await page.getByRole('dialog', { name: 'Usunąć webhook?' }).getByRole('button', { name: 'Usuń' }).click();
    await expect(card.getByText('Brak webhooków.')).toBeVisible();
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
