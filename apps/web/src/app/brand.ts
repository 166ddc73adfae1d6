import { currentBrand } from '@/config/brands';

/** The tab's icon and title follow the brand of the host the app is served from. */
export function applyBrand(): void {
  const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (icon) icon.href = currentBrand.logo;
  document.title = currentBrand.name;
}
