/** A brand: what the browser tab and the header show. */
export type Brand = {
  id: string;
  name: string;
  /** Square SVG served from public/brands; used as the logo and as the favicon. */
  logo: string;
  /** Host names this brand is served at; the first brand with a matching pattern wins. */
  hosts: readonly RegExp[];
};

export const DEFAULT_BRAND: Brand = { id: 'pivot', name: 'Pivot', logo: '/brands/pivot.svg', hosts: [] };

/** The partner brands, chosen by host name (docs/product.md#who-it-is-for); `*.localhost` names let them be tried locally. */
export const BRANDS: readonly Brand[] = [
  {
    id: 'irrigo',
    name: 'Irrigo',
    logo: '/brands/irrigo.svg',
    hosts: [/(^|\.)irrigo\.(pl|eu|com)$/, /^irrigo\.localhost$/],
  },
  {
    id: 'agrowater',
    name: 'AgroWater',
    logo: '/brands/agrowater.svg',
    hosts: [/(^|\.)agrowater\.(pl|eu|com)$/, /^agrowater\.localhost$/],
  },
];

export function brandForHost(hostname: string): Brand {
  const host = hostname.toLowerCase();
  return BRANDS.find((brand) => brand.hosts.some((pattern) => pattern.test(host))) ?? DEFAULT_BRAND;
}

/** The brand of the host this page was loaded from. */
export const currentBrand: Brand = brandForHost(location.hostname);
