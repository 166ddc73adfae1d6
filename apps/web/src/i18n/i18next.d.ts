import 'i18next';
import type en from './locales/en.json';

/** Keys and interpolation values of t() are checked against the English catalogue. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    strictKeyChecks: true;
    strictInterpolationChecks: true;
  }
}
