import 'i18next';
import type en from './locales/en.json';
import type enAdmin from './locales/en.admin.json';
import type enAdvice from './locales/en.advice.json';
import type enAuth from './locales/en.auth.json';
import type enCalendar from './locales/en.calendar.json';
import type enTables from './locales/en.tables.json';
import type enFarms from './locales/en.farms.json';
import type enInvitation from './locales/en.invitation.json';
import type enDealers from './locales/en.dealers.json';
import type enErrorCodes from './locales/en.error-codes.json';
import type enMachineCards from './locales/en.machine-cards.json';
import type enMachineList from './locales/en.machine-list.json';
import type enMachines from './locales/en.machines.json';
import type enPrograms from './locales/en.programs.json';
import type enSecondFactor from './locales/en.second-factor.json';
import type enSignedIn from './locales/en.signed-in.json';

/** Keys and interpolation values of t() are checked against the English catalogue, all its parts. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en &
        typeof enAuth &
        typeof enSignedIn &
        typeof enMachines &
        typeof enMachineCards &
        typeof enMachineList &
        typeof enPrograms &
        typeof enAdvice &
        typeof enAdmin &
        typeof enErrorCodes &
        typeof enSecondFactor &
        typeof enCalendar &
        typeof enTables &
        typeof enFarms &
        typeof enInvitation &
        typeof enDealers;
    };
    strictKeyChecks: true;
    strictInterpolationChecks: true;
  }
}
