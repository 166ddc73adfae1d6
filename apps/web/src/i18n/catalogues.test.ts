import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS, LOG_EVENT_PARAMS, LOG_EVENT_TYPES, MACHINE_STATE_WORDS, PASSWORD_RULES } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/config/locales';
import enAdmin from './locales/en.admin.json';
import enAdvice from './locales/en.advice.json';
import enAuth from './locales/en.auth.json';
import enCalendar from './locales/en.calendar.json';
import enTables from './locales/en.tables.json';
import enFarms from './locales/en.farms.json';
import enInvitation from './locales/en.invitation.json';
import enDealers from './locales/en.dealers.json';
import enErrorCodes from './locales/en.error-codes.json';
import enBase from './locales/en.json';
import enMachineCards from './locales/en.machine-cards.json';
import enMachineList from './locales/en.machine-list.json';
import enMachines from './locales/en.machines.json';
import enPrograms from './locales/en.programs.json';
import enSecondFactor from './locales/en.second-factor.json';
import enSignedIn from './locales/en.signed-in.json';
import plAdmin from './locales/pl.admin.json';
import plAdvice from './locales/pl.advice.json';
import plAuth from './locales/pl.auth.json';
import plCalendar from './locales/pl.calendar.json';
import plTables from './locales/pl.tables.json';
import plFarms from './locales/pl.farms.json';
import plInvitation from './locales/pl.invitation.json';
import plDealers from './locales/pl.dealers.json';
import plErrorCodes from './locales/pl.error-codes.json';
import plBase from './locales/pl.json';
import plMachineCards from './locales/pl.machine-cards.json';
import plMachineList from './locales/pl.machine-list.json';
import plMachines from './locales/pl.machines.json';
import plPrograms from './locales/pl.programs.json';
import plSecondFactor from './locales/pl.second-factor.json';
import plSignedIn from './locales/pl.signed-in.json';

type Catalogue = Record<string, unknown>;
const parts: Record<string, Catalogue[]> = {
  en: [
    enBase,
    enAuth,
    enSignedIn,
    enMachines,
    enMachineCards,
    enMachineList,
    enPrograms,
    enAdvice,
    enAdmin,
    enErrorCodes,
    enSecondFactor,
    enCalendar,
    enTables,
    enFarms,
    enInvitation,
    enDealers,
  ],
  pl: [
    plBase,
    plAuth,
    plSignedIn,
    plMachines,
    plMachineCards,
    plMachineList,
    plPrograms,
    plAdvice,
    plAdmin,
    plErrorCodes,
    plSecondFactor,
    plCalendar,
    plTables,
    plFarms,
    plInvitation,
    plDealers,
  ],
};
const en: Catalogue = {
  ...enBase,
  ...enAuth,
  ...enSignedIn,
  ...enMachines,
  ...enMachineCards,
  ...enMachineList,
  ...enPrograms,
  ...enAdvice,
  ...enAdmin,
  ...enErrorCodes,
  ...enSecondFactor,
  ...enCalendar,
  ...enTables,
  ...enFarms,
  ...enInvitation,
  ...enDealers,
};
const pl: Catalogue = {
  ...plBase,
  ...plAuth,
  ...plSignedIn,
  ...plMachines,
  ...plMachineCards,
  ...plMachineList,
  ...plPrograms,
  ...plAdvice,
  ...plAdmin,
  ...plErrorCodes,
  ...plSecondFactor,
  ...plCalendar,
  ...plTables,
  ...plFarms,
  ...plInvitation,
  ...plDealers,
};
const catalogues: Record<string, Catalogue> = { en, pl };
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every leaf of a catalogue as 'a.b.c' → text. */
function leaves(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') result.set(name, value);
    else for (const [leaf, text] of leaves(value as Catalogue, name)) result.set(leaf, text);
  }
  return result;
}

/** The keys as code uses them: plural forms ('x_one', 'x_few') count as 'x'. */
function baseKeys(catalogue: Catalogue): Set<string> {
  return new Set([...leaves(catalogue).keys()].map((key) => key.replace(PLURAL_SUFFIX, '')));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe('the translation catalogues', () => {
  it('have a catalogue for every locale', () => {
    expect(Object.keys(catalogues).sort()).toEqual([...LOCALES].sort());
  });

  it('split each language into parts that share no top-level key', () => {
    for (const [locale, catalogueParts] of Object.entries(parts)) {
      const keys = catalogueParts.flatMap((part) => Object.keys(part));
      expect(
        keys.filter((key, index) => keys.indexOf(key) !== index),
        locale,
      ).toEqual([]);
    }
  });

  it('hold the same keys in Polish and English, part by part', () => {
    expect(Object.keys(plMachines).sort()).toEqual(Object.keys(enMachines).sort());
    expect(Object.keys(plPrograms).sort()).toEqual(Object.keys(enPrograms).sort());
    expect(Object.keys(plAdmin).sort()).toEqual(Object.keys(enAdmin).sort());
    expect(Object.keys(plAdvice).sort()).toEqual(Object.keys(enAdvice).sort());
    expect(Object.keys(plSignedIn).sort()).toEqual(Object.keys(enSignedIn).sort());
    expect(Object.keys(plSecondFactor).sort()).toEqual(Object.keys(enSecondFactor).sort());
    expect(Object.keys(plFarms).sort()).toEqual(Object.keys(enFarms).sort());
    expect(Object.keys(plDealers).sort()).toEqual(Object.keys(enDealers).sort());
    expect([...baseKeys(pl)].sort()).toEqual([...baseKeys(en)].sort());
  });

  it('have every plural form each language needs', () => {
    for (const [locale, catalogue] of Object.entries(catalogues)) {
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      const keys = [...leaves(catalogue).keys()];
      const plurals = new Set(
        keys.filter((key) => PLURAL_SUFFIX.test(key)).map((key) => key.replace(PLURAL_SUFFIX, '')),
      );
      for (const base of plurals) {
        for (const category of categories)
          expect(keys, `${locale}: ${base}_${category}`).toContain(`${base}_${category}`);
      }
    }
  });

  it('use the same placeholders in both languages', () => {
    const english = leaves(en);
    for (const [key, text] of leaves(pl)) {
      const counterpart = english.get(key) ?? english.get(key.replace(PLURAL_SUFFIX, '_other'));
      expect(placeholders(text), key).toEqual(placeholders(counterpart ?? ''));
    }
  });

  it('have no empty text', () => {
    for (const [locale, catalogue] of Object.entries(catalogues)) {
      for (const [key, text] of leaves(catalogue)) expect(text.trim(), `${locale}: ${key}`).not.toBe('');
    }
  });

  it('translate every error code of the API with a title and a message', () => {
    for (const catalogue of Object.values(catalogues)) {
      const keys = leaves(catalogue);
      for (const code of Object.keys(ERROR_STATUS)) {
        expect(keys.has(`errorCodes.${code}.title`), code).toBe(true);
        expect(keys.has(`errorCodes.${code}.message`), code).toBe(true);
      }
    }
  });

  it('give every log event a title and a subtitle with its two parameters', () => {
    for (const catalogue of Object.values(catalogues)) {
      const keys = leaves(catalogue);
      for (const type of LOG_EVENT_TYPES) {
        expect(keys.get(`activity.events.${type}.title`), type).toBeTruthy();
        const subtitle = keys.get(`activity.events.${type}.subtitle`) ?? '';
        expect(placeholders(subtitle), type).toEqual([...LOG_EVENT_PARAMS[type]].sort());
      }
    }
  });

  it("word a machine's state as the server's search of the machines list reads it", () => {
    for (const [locale, catalogue] of Object.entries(catalogues)) {
      const { status, offline, wasDoing } = (catalogue as { sprinklers: Record<string, unknown> }).sprinklers;
      const words = MACHINE_STATE_WORDS[locale as keyof typeof MACHINE_STATE_WORDS];
      expect({ status, offline, wasDoing }, locale).toMatchObject(words);
    }
  });

  it('name every password rule', () => {
    for (const catalogue of Object.values(catalogues)) {
      for (const rule of PASSWORD_RULES) expect(leaves(catalogue).has(`password.rules.${rule}`), rule).toBe(true);
    }
  });

  it('hold every key the code asks for', () => {
    const source = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const known = baseKeys(en);
    // Literal keys: t('a.b'), t(`a.b`); template keys are checked up to their first placeholder.
    const call = /\bt\(\s*(['`])([\w.]+?)(\$\{[^}]*\}[\w.]*)?\1/g;
    const used = sourceFiles(source).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(call)].map((match) => ({
        file: path.relative(source, file),
        key: match[2] ?? '',
        dynamic: Boolean(match[3]),
      })),
    );
    expect(used.length).toBeGreaterThan(100);
    for (const { file, key, dynamic } of used) {
      const found = dynamic ? [...known].some((candidate) => candidate.startsWith(key)) : known.has(key);
      expect(found, `${file}: ${key}`).toBe(true);
    }
  });

  it("keep the programs', the advice's, the administration's, the farms', the signed-in screens' and the sign-in forms' texts to the code that loads them", () => {
    // routes.tsx fetches `programs` with the sector and administration screens (the machine
    // page with its programs panel), `advice` comes with the machine page's advice cards, `admin`
    // with the administration's screens, `signedIn` with the home, account, activity and
    // administration screens and the header's menus (app/layout/header.tsx): the list and the
    // machine page show before any of these may arrive, so the rest of their code must not ask
    // for their keys.
    const source = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const signedIn = Object.keys(enSignedIn).join('|');
    const auth = Object.keys(enAuth).join('|');
    const machineCards = Object.keys(enMachineCards).join('|');
    const loaders: [RegExp, RegExp][] = [
      // The date picker's open calendar (ui/date-picker/date-picker.tsx fetches it with its code).
      [/^calendar$/, /^ui\/date-picker\/calendar-panel\.tsx$/],
      // The machines' list (routes.tsx).
      [
        /^machineList$/,
        /^(app\/routes\/sprinklers\.tsx|features\/sprinklers\/components\/(sprinklers-table|next-irrigation)\.tsx)$/,
      ],
      // The screens with a table or a list that loads (routes.tsx) and the header's menus (layout/header.tsx).
      [/^(table|picker)$/, /^(ui\/(data-table|picker-dialog)\.tsx$|features\/(admin|alerts|activity)\/)/],
      // The machine page's cards (app/routes/sprinkler.tsx), its Soil water layer (use-soil-water-code.ts) and
      // its weather stations' readings on the map (map/use-weather-station-facts.ts), the motion buttons' questions.
      [
        new RegExp(`^(${machineCards})$`),
        /^features\/sprinklers\/components\/(weather-station-(days|facts)|weather-stations-card|data-download-card|soil-water-legend|map\/soil-water-cell-text|motion-controls)\.tsx?$/,
      ],
      // The login pages (routes.tsx: authScreen), the account and administration screens.
      [
        new RegExp(`^(${auth})$`),
        /^(features\/(auth|account|admin)\/|app\/routes\/(login|forgot|set-password|invitation)\.tsx$|ui\/form\/(user-fields|new-password-fields|password-rules|password-field)\.tsx$)/,
      ],
      [/^programs$/, /^(features\/(programs|admin)\/|app\/routes\/(sector|admin)\.tsx$)/],
      [/^advice$/, /^features\/advice\//],
      // The login's second step, fetched with its texts once a login answers a challenge (login-form.tsx).
      [/^secondFactor$/, /^features\/auth\/components\/second-factor-step\.tsx$/],
      [/^admin$/, /^(features\/admin\/|app\/routes\/admin\.tsx$)/],
      // An invitation's page (routes.tsx), apart from the login pages' texts.
      [/^invitation$/, /^(features\/auth\/components\/invitation-form\.tsx|app\/routes\/invitation\.tsx)$/],
      // The farms' screens (routes.tsx: farmsScreen).
      [/^farms$/, /^(features\/farms\/|app\/routes\/farms\.tsx$)/],
      // A dealer's fleet (routes.tsx).
      [/^dealers$/, /^(features\/dealers\/|app\/routes\/dealer\.tsx$)/],
      [
        new RegExp(`^(${signedIn})$`),
        /^(features\/(activity|account|alerts|admin)\/|app\/routes\/(home|account|activity|admin)\.tsx$|app\/layout\/signed-in-controls\.tsx$|ui\/form\/alert-choice-fields\.tsx$|i18n\/log-event-text\.ts$)/,
      ],
    ];
    const asked = new RegExp(
      `(['\`])(programs|advice|admin|farms|invitation|dealers|secondFactor|${signedIn}|${auth}|${machineCards}|calendar|table|picker|machineList)\\.[\\w.$]`,
      'g',
    );
    const strays = sourceFiles(source).flatMap((file) => {
      const relative = path.relative(source, file);
      return [...readFileSync(file, 'utf8').matchAll(asked)]
        .map((match) => match[2] ?? '')
        .filter((part) => !loaders.some(([keys, code]) => keys.test(part) && code.test(relative)))
        .map((part) => `${relative}: ${part}`);
    });
    expect(Object.keys(enSignedIn)).toContain('alerts');
    expect(Object.keys(enAuth)).toContain('login');
    expect(Object.keys(enMachineCards)).toContain('soilWater');
    expect(enPrograms).toHaveProperty('programs');
    expect(enAdvice).toHaveProperty('advice');
    expect(enAdmin).toHaveProperty('admin');
    expect(enFarms).toHaveProperty('farms');
    expect(enInvitation).toHaveProperty('invitation');
    expect(enDealers).toHaveProperty('dealers');
    expect(strays).toEqual([]);
  });
});
