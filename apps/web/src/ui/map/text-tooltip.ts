/**
 * Tooltip content for Leaflet, which takes a string as HTML: names come from users and machines,
 * so they go in as text (`<img onerror=…>` in a sector's name shows as written, and runs nothing).
 */
export function textTooltip(text: string): HTMLElement {
  const content = document.createElement('span');
  content.textContent = text;
  return content;
}
