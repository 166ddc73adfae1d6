import {
  ERROR_STATUS,
  type ErrorCode,
  MAX_PRESCRIPTION_FILE_BYTES,
  type PrescriptionPreview,
  PrescriptionPreviewSchema,
  PrescriptionRequestSchema,
  type Program,
  ProgramBodySchema,
  type SprinklerDetail,
  SprinklerDetailSchema,
  positionAt,
} from '@pivot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Locale } from '@/config/locales';
import { type ApiFailure, onApiFailure } from '@/lib/api-client';
import { session } from '@/lib/session';
import { buildSprinklerDetail, buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { Toaster } from '@/ui/toast/toaster';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { PrescriptionImportButton } from './prescription-import-button';

// The map's colours follow the colour mode, whose store asks for prefers-color-scheme when loaded.
vi.hoisted(() =>
  vi.stubGlobal('matchMedia', (media: string) =>
    Object.assign(new EventTarget(), { matches: false, media, addListener: () => undefined }),
  ),
);

const ARM = 300;

/** A prescription file of the test: one zone a rate, the first east of the pivot, the second west. */
const prescriptionFile = (name: string, rates: number[]) =>
  new File(
    [
      JSON.stringify({
        type: 'FeatureCollection',
        features: rates.map((rate) => ({ type: 'Feature', geometry: null, properties: { rate, zone: 1 } })),
      }),
    ],
    name,
    { type: 'application/geo+json' },
  );

/**
 * The prescription and program calls in miniature: the file's zones become equal wedges at their
 * rates (tenfold less when read in m³/ha), a negative rate is refused as the server refuses it.
 * Every answer goes through the contract's schema, so a fake that drifted from it fails here.
 */
class FakeServer {
  programs: Program[] = [];
  requests: { path: string; body: Record<string, unknown> }[] = [];

  constructor(private readonly sprinkler: SprinklerDetail) {
    this.programs = [...sprinkler.programs];
  }

  answer(path: string, body: Record<string, unknown>): [number, unknown] {
    this.requests.push({ path, body });
    if (path === `/api/sprinkler/${this.sprinkler.id}/prescription/`) {
      const request = PrescriptionRequestSchema.parse(body);
      const file = JSON.parse(atob(request.content)) as { features: { properties: { rate: number } }[] };
      const rates = file.features.map((zone) => zone.properties.rate);
      if (rates.some((rate) => rate < 0)) return this.refusal('prescription_rate_out_of_range');
      const unit = request.unit ?? 'mm';
      return [
        200,
        this.preview(
          rates.map((rate) => (unit === 'mm' ? rate : rate / 10)),
          request,
        ),
      ];
    }
    if (path === `/api/sprinkler/${this.sprinkler.id}/program/`) {
      const program = ProgramBodySchema.parse(body);
      this.programs.push({ id: 40 + this.programs.length, ...program });
      return [201, z.encode(SprinklerDetailSchema, { ...this.sprinkler, programs: this.programs })];
    }
    return this.refusal('sprinkler_not_found');
  }

  private refusal(code: ErrorCode): [number, unknown] {
    return [ERROR_STATUS[code], { code, message: 'from the server' }];
  }

  private preview(rates: number[], request: { column?: string; unit?: string; alikeMm: number }): PrescriptionPreview {
    const centre = { lat: this.sprinkler.lat, lng: this.sprinkler.lng };
    const step = 360 / rates.length;
    const sectors = rates.map((rate, index) => {
      const [fromAngle, toAngle] = [index * step, (index + 1) * step];
      return {
        name: `${fromAngle}°–${toAngle % 360}°`,
        fromAngle,
        toAngle,
        rate,
        prescribedMin: rate,
        prescribedMax: rate,
        meanDifference: 0,
        coveredShare: 1,
      };
    });
    const wedge = (from: number, to: number) => {
      const arc = Array.from({ length: to - from + 1 }, (_, degree) => positionAt(centre, from + degree, ARM));
      const pivot: [number, number] = [centre.lng, centre.lat];
      return [pivot, ...arc, pivot];
    };
    const volume = Math.round(rates.reduce((sum, rate) => sum + (Math.PI * ARM * ARM * rate) / rates.length / 1000, 0));
    return PrescriptionPreviewSchema.parse({
      columns: ['rate', 'zone'],
      column: request.column ?? 'rate',
      unit: request.unit ?? 'mm',
      alikeMm: request.alikeMm,
      zoneCount: rates.length,
      grid: {
        west: centre.lng - 0.005,
        south: centre.lat - 0.003,
        east: centre.lng + 0.005,
        north: centre.lat + 0.003,
        columns: 2,
        rows: 2,
        rates: [rates[1] ?? null, rates[0] ?? null, rates[1] ?? null, rates[0] ?? null],
      },
      sectors,
      programData: {
        type: 'FeatureCollection',
        features: sectors.map(({ name, rate, fromAngle, toAngle }) => ({
          type: 'Feature',
          geometry: { type: 'Polygon', coordinates: [wedge(fromAngle, toAngle)] },
          properties: { name, rate },
        })),
      },
      prescribedVolume: volume,
      programVolume: volume + 3,
    });
  }
}

let server: FakeServer;
/** The failures the app shows as toasts in the user's language (app/api-failure-toasts.ts). */
let failures: ApiFailure[] = [];
let stopListening: () => void;

beforeAll(() => {
  stopListening = onApiFailure((failure) => failures.push(failure));
  // jsdom paints no canvas: the prescription's colours are the browser tests' to look at.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterAll(() => stopListening());

afterEach(() => {
  vi.unstubAllGlobals();
  for (const toast of toastStore.get()) dismissToast(toast.id);
});

const machine = (programs: Program[] = []) => buildSprinklerDetail({ level: 'control', programs });

beforeEach(() => {
  failures = [];
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(buildUser(), 'access-1');
});

/** The button as the programs card shows it, with the toasts; the server answers as `server` does. */
async function renderButton(sprinkler: SprinklerDetail, locale: Locale = 'en') {
  server = new FakeServer(sprinkler);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const [status, answer] = init.method === 'POST' ? server.answer(pathname, body) : [200, {}];
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  });
  const onCreated = vi.fn();
  const user = userEvent.setup();
  const view = await renderInApp(
    <>
      <PrescriptionImportButton sprinkler={sprinkler} onCreated={onCreated} />
      <Toaster />
    </>,
    { locale, path: locale === 'en' ? '/en' : '/' },
  );
  const input = view.container.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { user, input, onCreated };
}

/** Each row of the sectors' table as its cells' texts. */
const rows = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('a program from a prescription', () => {
  it('sends the chosen file, shows the program beside the prescription, reads it again in m³/ha and saves it under a free name', async () => {
    const taken = { id: 3, name: 'Pole 3', programData: { type: 'FeatureCollection' as const, features: [] } };
    const { user, input, onCreated } = await renderButton(machine([taken]));
    expect(input).toHaveAttribute('accept', '.zip,.geojson,.json');
    const file = prescriptionFile('Pole 3.geojson', [12, 24]);
    await user.upload(input, file);

    const dialog = await screen.findByRole('dialog', { name: 'Program from a prescription' });
    expect(server.requests[0]!.body).toEqual({ fileName: 'Pole 3.geojson', content: btoa(await file.text()) });
    expect(dialog).toHaveAccessibleDescription('Pole 3.geojson: 2 zones with a rate in the column rate');
    expect(rows(dialog)).toEqual([
      ['0°–180°', '12 mm', '12 mm', '0 mm', '100%'],
      ['180°–0°', '24 mm', '24 mm', '0 mm', '100%'],
    ]);
    expect(within(dialog).getByText('Water the prescription asks for').nextSibling).toHaveTextContent('5,089 m³');
    expect(within(dialog).getByText('Water the program gives').nextSibling).toHaveTextContent(
      '5,092 m³ (+3 m³, +0.1%)',
    );
    expect(within(dialog).getByLabelText('Rate column')).toHaveValue('rate');
    // The map's code comes after the dialog's (Leaflet is loaded when a map is first shown).
    const map = await within(dialog).findByRole('region', {
      name: "Map of the prescription with the program's sectors",
    });
    expect(await within(map).findByText('12 mm')).toBeInTheDocument();
    expect(within(map).getByText('24 mm')).toBeInTheDocument();

    await user.selectOptions(within(dialog).getByLabelText('Unit of the rate'), 'm³/ha');
    await waitFor(() => expect(rows(dialog)[0]).toEqual(['0°–180°', '1.2 mm', '1.2 mm', '0 mm', '100%']));
    expect(rows(dialog)[1]![1]).toBe('2.4 mm');
    expect(await within(map).findByText('2.4 mm')).toBeInTheDocument();
    expect(within(map).queryByText('24 mm')).toBeNull();
    expect(server.requests[1]!.body).toMatchObject({ fileName: 'Pole 3.geojson', unit: 'm3_per_ha' });
    expect(within(dialog).getByLabelText('Unit of the rate')).toHaveValue('m3_per_ha');

    // The file's name is a program's already: said at once, and nothing is stored until it is changed.
    const name = within(dialog).getByLabelText('Program name');
    expect(name).toHaveValue('Pole 3');
    expect(name).toHaveAccessibleDescription('A program named “Pole 3” already exists');
    await user.click(within(dialog).getByRole('button', { name: 'Save as program' }));
    expect(name).toHaveFocus();
    expect(server.requests).toHaveLength(2);

    await user.type(name, ' m3');
    await user.click(within(dialog).getByRole('button', { name: 'Save as program' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(41));
    const stored = server.programs.at(-1)!;
    expect(stored.name).toBe('Pole 3 m3');
    expect(stored.programData.features.map((sector) => sector.properties)).toEqual([
      { name: '0°–180°', rate: 1.2 },
      { name: '180°–0°', rate: 2.4 },
    ]);
    expect(await screen.findByText('Program “Pole 3 m3” created from the prescription')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
  }, 20_000);

  it("hands a refused file's reason to the app to show, and opens and stores nothing", async () => {
    const { user, input } = await renderButton(machine(), 'pl');
    const button = screen.getByRole('button', { name: 'Z zalecenia' });
    await user.upload(input, prescriptionFile('zalecenie.geojson', [10, -5]));
    await waitFor(() =>
      expect(failures.map((failure) => failure.error?.code)).toEqual(['prescription_rate_out_of_range']),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toBeEnabled();
    expect(server.requests.map(({ path }) => path)).toEqual(['/api/sprinkler/7/prescription/']);
  });

  it('writes the rates as Polish does', async () => {
    const { user, input } = await renderButton(machine(), 'pl');
    await user.upload(input, prescriptionFile('zalecenie.zip', [12.5, 7]));
    const dialog = await screen.findByRole('dialog', { name: 'Program z zalecenia' });
    expect(dialog).toHaveAccessibleDescription('zalecenie.zip: 2 strefy z dawką w kolumnie rate');
    expect(rows(dialog)[0]).toEqual(['0°–180°', '12,5 mm', '12,5 mm', '0 mm', '100%']);
    expect(within(dialog).getByLabelText('Nazwa programu')).toHaveValue('zalecenie');
    await user.click(within(dialog).getByRole('button', { name: 'Anuluj' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a file larger than the server takes without sending it', async () => {
    const { user, input } = await renderButton(machine());
    const large = new File([new Uint8Array(MAX_PRESCRIPTION_FILE_BYTES + 1)], 'huge.zip');
    await user.upload(input, large);
    expect(await screen.findByText('Prescription too large')).toBeVisible();
    expect(screen.getByText(/at most 8 MB/)).toBeVisible();
    expect(server.requests).toEqual([]);
  });
});
