/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API answers; '/api' on the same origin by default. */
  readonly VITE_API_BASE?: string;
  /** Where the account page's "extend subscription" link leads. */
  readonly VITE_SUBSCRIPTION_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
