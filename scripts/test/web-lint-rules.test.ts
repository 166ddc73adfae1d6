import { describe, expect, it } from 'vitest';
import { brokenRules } from './lint';

/** The rules broken by a module at `file` (below apps/web/src) that imports `from` and uses it. */
const importing = (file: string, from: string) =>
  brokenRules(`apps/web/src/${file}`, `import { x } from '${from}';\nexport const y = x;\n`);

describe("the web app's layers", () => {
  it.each([
    // ui shows what it is given: nothing of lib, the features or the app.
    ['ui/toast/toast-store.ts', '@/lib/session'],
    ['ui/button.tsx', '../lib/session'],
    ['ui/form/user-fields.tsx', '@/features/account/api/update-account'],
    ['ui/page.tsx', '@/app/routes'],
    // lib shows nothing: nothing of ui, the features or the app.
    ['lib/api-client.ts', '@/ui/toast/toast-store'],
    ['lib/api-client.ts', '../ui/toast/toast-store'],
    ['lib/session.ts', '@/features/auth/api/login'],
    ['lib/api-client.ts', '@/app/api-failure-toasts'],
    ['config/paths.ts', '@/features/admin/api/get-users'],
    // A feature uses the shared layers and itself only.
    ['features/admin/components/users-table.tsx', '@/features/account/api/logout'],
    ['features/programs/api/send-program.ts', '@/app/routes'],
    ['features/alerts/components/alert-list.tsx', '@/features/admin/api/get-users'],
    // Relative paths stay within a folder and its neighbours.
    ['ui/map/sector-style.ts', '../../lib/color-mode'],
    ['features/admin/api/get-users.ts', '../../account/api/logout'],
  ])('refuse %s importing %s', async (file, from) => {
    expect(await importing(file, from)).toContain('no-restricted-imports');
  });

  it.each([
    ['ui/toast/toast-store.ts', '@/config/create-store'],
    ['ui/form/user-fields.tsx', '../button'],
    ['lib/session.ts', '@/config/create-store'],
    ['lib/api-client.ts', '@/i18n/i18n'],
    ['features/account/components/account-form.tsx', '@/ui/form/user-fields'],
    ['features/admin/api/get-users.ts', '@/lib/api-client'],
    ['features/admin/components/users-table.tsx', '@/features/admin/api/get-users'],
    ['features/admin/components/users-table.tsx', '../api/get-users'],
    ['app/api-failure-toasts.ts', '@/lib/api-client'],
  ])('let %s import %s', async (file, from) => {
    expect(await importing(file, from)).not.toContain('no-restricted-imports');
  });
});

describe('text from users stays text', () => {
  const rulesOf = (code: string) => brokenRules('apps/web/src/features/sprinklers/components/map/example.tsx', code);

  it.each([
    'export const show = (layer: L.Layer, name: string) => layer.bindTooltip(name);',
    'export const show = (layer: L.Layer, name: string) => layer.bindPopup(`<b>${name}</b>`);',
    'export const show = (element: HTMLElement, name: string) => { element.innerHTML = name; };',
    "export const show = (element: HTMLElement, name: string) => element.insertAdjacentHTML('beforeend', name);",
    'export const icon = (name: string) => L.divIcon({ html: name });',
    'export const Name = ({ name }: { name: string }) => <span dangerouslySetInnerHTML={{ __html: name }} />;',
  ])('refuse %s', async (code) => {
    expect(await rulesOf(code)).toContain('no-restricted-syntax');
  });

  it.each([
    "import { textTooltip } from '@/ui/map/text-tooltip';\nexport const show = (layer: L.Layer, name: string) => layer.bindTooltip(textTooltip(name), { sticky: true });",
    'export const show = (element: HTMLElement, name: string) => { element.textContent = name; };',
  ])('let %s', async (code) => {
    expect(await rulesOf(code)).not.toContain('no-restricted-syntax');
  });
});

describe('actions are plain calls', () => {
  const rulesOf = (code: string) => brokenRules('apps/web/src/features/sprinklers/api/example.ts', code);

  it("refuse TanStack Query's mutation hook", async () => {
    expect(
      await rulesOf("import { useMutation } from '@tanstack/react-query';\nexport const x = useMutation;\n"),
    ).toContain('no-restricted-syntax');
  });

  it('let its queries be read', async () => {
    expect(
      await rulesOf("import { useQuery } from '@tanstack/react-query';\nexport const x = useQuery;\n"),
    ).not.toContain('no-restricted-syntax');
  });
});

describe('the endpoints declared in the contracts', () => {
  const RULE = 'endpoints/no-hand-typed-path';
  const at = (file: string, code: string) =>
    brokenRules(`apps/web/src/${file}`, `import { apiCall, followEventStream } from '@/lib/api-client';\n${code}\n`);

  it.each([
    [
      'features/activity/api/get-logs.ts',
      "export const x = apiCall({ method: 'GET', path: '/logs/', response: null! });",
    ],
    [
      'features/alerts/api/delete-webhook.ts',
      'export const x = (id: number) => apiCall({ method: "DELETE", path: `/admin/webhooks/${id}/`, response: null! });',
    ],
    ['features/alerts/api/follow-alerts.ts', "export const x = followEventStream({ path: '/alerts/events' });"],
    [
      'features/admin/api/remove-device.ts',
      "export const x = apiCall({ method: 'DELETE', path: '/device/a/', response: null! });",
    ],
    [
      'features/admin/api/create-user.ts',
      "export const x = apiCall({ method: 'POST', path: '/user/', response: null! });",
    ],
    // A new file of any feature's API calls is fenced as soon as it exists.
    ['features/advice/api/a-new-call.ts', "export const x = apiCall({ method: 'GET', path: '/x/', response: null! });"],
    // The machines' own calls, the last to move onto declarations.
    [
      'features/sprinklers/api/get-sprinkler.ts',
      'export const x = (id: number) => apiCall({ method: "GET", path: `/sprinkler/${id}/`, response: null! });',
    ],
    [
      'features/admin/api/get-all-sprinklers.ts',
      "export const x = apiCall({ method: 'GET', path: '/sprinkler/', response: null! });",
    ],
    // A feature's live stream opened from a hook, outside its api folder.
    [
      'features/sprinklers/hooks/use-live-sprinkler.ts',
      'export const x = (id: number) => followEventStream({ path: `/sprinkler/${id}/events` });',
    ],
  ])('refuse a path typed by hand in %s', async (file, code) => {
    expect(await at(file, code)).toContain(RULE);
  });

  it("leave the calls through a declaration, and a test's own paths", async () => {
    expect(
      await brokenRules(
        'apps/web/src/features/activity/api/get-logs.ts',
        "import { logsEndpoints } from '@pivot/contracts';\nimport { callEndpoint } from '@/lib/api-client';\nexport const x = callEndpoint(logsEndpoints.list, {});\n",
      ),
    ).not.toContain(RULE);
    expect(
      await at(
        'features/sprinklers/api/move-sprinkler.test.ts',
        "export const x = apiCall({ method: 'POST', path: '/sprinkler/3/motion', response: null! });",
      ),
    ).not.toContain(RULE);
  });
});

describe("the web tests' shared modules", () => {
  const loadingAnew = "import { vi } from 'vitest';\nvi.resetModules();\n";

  it('refuse loading the modules anew in a file that shares them', async () => {
    expect(await brokenRules('apps/web/src/lib/example.test.ts', loadingAnew)).toContain('no-restricted-properties');
  });

  it('let a fresh-modules file load them anew', async () => {
    expect(await brokenRules('apps/web/src/lib/example.fresh-modules.test.ts', loadingAnew)).not.toContain(
      'no-restricted-properties',
    );
  });
});
